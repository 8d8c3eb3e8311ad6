package riskmodel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestNoEagerTables checks that no package-level variable of riskmodel is built at package
// init: a map literal or a call in a variable's initialiser runs in every process that links
// riskmodel (a hook call is one process per tool call), whether or not its review reads it.
// Tables are declared as table or wordSet literals (table.go), which the linker lays out as
// static data; expressions as lazyRegexp and its kin, which compile on first use. A function
// literal's body runs only when called, so what it holds is not checked.
func TestNoEagerTables(t *testing.T) {
	// Calls allowed in an initialiser: they build nothing but a small wrapper (see
	// TestInitAllocations for what those wrappers cost).
	allowed := map[string]bool{"lazyRegexp": true, "lazyLitRegexp": true, "lazyNeedRegexp": true,
		"lazyLineRegexp": true, "lazySubmatcher": true, "sync.OnceValue": true, "sync.OnceValues": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						switch x := n.(type) {
						case *ast.FuncLit:
							return false
						case *ast.CompositeLit:
							if _, ok := x.Type.(*ast.MapType); ok {
								t.Errorf("%s: a map literal is built at package init; declare it as a table (table.go)", fset.Position(x.Pos()))
							}
						case *ast.CallExpr:
							fun := exprName(x.Fun)
							if !allowed[fun] && !isConversion(x) {
								t.Errorf("%s: %s is called at package init; build the value on first use (a table, table.go)", fset.Position(x.Pos()), fun)
							}
						}
						return true
					})
				}
			}
		}
	}
}

// exprName is the name a call's function is written as: f, pkg.F or x.m.
func exprName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprName(x.X) + "." + x.Sel.Name
	case *ast.IndexExpr:
		return exprName(x.X)
	}
	return "(func)"
}

// isConversion reports a call that converts a constant, such as []byte("x"), which the
// compiler lays out statically.
func isConversion(c *ast.CallExpr) bool {
	if len(c.Args) != 1 {
		return false
	}
	_, lit := c.Args[0].(*ast.BasicLit)
	_, arr := c.Fun.(*ast.ArrayType)
	return lit && arr
}

// TestInitAllocations measures what riskmodel's package init allocates in a program that
// links riskmodel and nothing else (testdata/initprog), as the runtime reports it with
// GODEBUG=inittrace=1. Allocation counts and bytes are deterministic for a given build, so
// the bound is exact, not a timing. What is left is the lazy expressions' wrappers (sync.Once
// state, ~3 small allocations each); the tables cost nothing. Before the tables were lazy
// the init allocated 259 KB in 1,359 allocations.
func TestInitAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	exe := filepath.Join(t.TempDir(), "initprog")
	if out, err := exec.Command(goTool, "build", "-o", exe, "./testdata/initprog").CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/initprog: %v\n%s", err, out)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("initprog: %v\n%s", err, out)
	}
	// init github.com/guardianhq/guardian/riskmodel @2.4 ms, 0.068 ms clock, 16520 bytes, 364 allocs
	line := regexp.MustCompile(`(?m)^init github\.com/guardianhq/guardian/riskmodel @.* (\d+) bytes, (\d+) allocs$`).FindSubmatch(out)
	if line == nil {
		t.Fatalf("no init line for riskmodel in GODEBUG=inittrace=1 output:\n%s", out)
	}
	bytes, _ := strconv.Atoi(string(line[1]))
	allocs, _ := strconv.Atoi(string(line[2]))
	t.Logf("riskmodel's package init: %d bytes in %d allocations", bytes, allocs)
	const maxBytes, maxAllocs = 24 << 10, 450
	if bytes > maxBytes || allocs > maxAllocs {
		t.Errorf("riskmodel's package init allocates %d bytes in %d allocations, above %d bytes or %d allocations: "+
			"something is built at init that a review could build on first use (table.go); "+
			"GODEBUG=memprofilerate=1 go test -run '^$' -memprofile m.out -memprofilerate 1 . && go tool pprof -focus riskmodel.init m.out shows what",
			bytes, allocs, maxBytes, maxAllocs)
	}
}
