package riskmodel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// TestDBMigrationNames keeps dbMigrationNames, the early exit of dbMigrationTool, in step with
// the names its switch handles: a name missing from the set would never be judged a migration.
func TestDBMigrationNames(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "rules_cloud.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "dbMigrationTool" {
			continue
		}
		for _, st := range fn.Body.List {
			sw, ok := st.(*ast.SwitchStmt)
			if !ok {
				continue
			}
			if id, ok := sw.Tag.(*ast.Ident); !ok || id.Name != "name" {
				continue
			}
			for _, c := range sw.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						seen[s] = true
					}
				}
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("dbMigrationTool's switch on name not found")
	}
	for n := range seen {
		if !dbMigrationNames.get()[n] {
			t.Errorf("dbMigrationNames lacks %q, which dbMigrationTool's switch handles", n)
		}
	}
	for n := range dbMigrationNames.get() {
		if !seen[n] {
			t.Errorf("dbMigrationNames has %q, which dbMigrationTool's switch does not handle", n)
		}
	}
}
