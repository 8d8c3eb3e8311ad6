package riskmodel

import (
	"strings"
)

// The interpreters of ecosystems beyond the scripting mainstream — Julia, Elixir (and its
// shell iex), Erlang, Babashka's Clojure, Raku, SWI-Prolog, Gforth and the TypeScript
// runners tsx and ts-node — run a project's
// tests, tasks and one-liners every day (julia --project -e 'using Pkg; Pkg.test()',
// iex -S mix, erl -noshell -eval …, bb test). They are interpreters like python or ruby: a
// script of the project runs as the project's own, a script elsewhere or one piped in from
// the network does not, and inline code is read for what it does (the capability tables
// below, from each language's standard library reference). Each one's command line differs,
// so the options that carry code, name a script or take a value are data here.

// ecoInterp describes one interpreter's command line.
type ecoInterp struct {
	lang string
	// code are options whose value is code (julia -e, erl -eval, swipl -g); code2 take a
	// value and then code (elixir --rpc-eval NODE CODE).
	code, code2 []string
	// script are options whose value is a script file it runs (julia -L, swipl -s).
	script []string
	// values are options that take a separate value that is neither code nor a script.
	values []string
	// multi are options whose values run on to the next option (erl -pa DIR DIR…, -s M F A…).
	multi []string
	// noScript: the interpreter never takes a script as an operand (erl runs modules from
	// its code path); tasks: a bare word operand is a task of the project (bb test), a path
	// or a name with an extension is a script.
	noScript, tasks bool
	// scriptExt, when set, are the endings an operand must have to be a script file (jbang
	// also takes catalogue aliases, name@org, that it fetches).
	scriptExt []string
}

// ecoInterps are looked up by command name. Sources: julia --help (docs.julialang.org,
// "Command-line Interface"); elixir --help and iex (hexdocs.pm/elixir, "IEx"); erl(1)
// (erlang.org/doc/man/erl); babashka book, "Usage"; raku --help (docs.raku.org, "programs
// /03-environment-variables" and "raku"); swipl --help (SWI-Prolog manual 2.4, "Command line
// options"); Gforth manual, "Invoking Gforth".
var ecoInterps = table[map[string]*ecoInterp]{build: func() map[string]*ecoInterp {
	elixir := &ecoInterp{lang: "elixir", code: []string{"-e", "--eval"}, code2: []string{"--rpc-eval"}, script: []string{"-r", "-pr", "--dot-iex"},
		values: []string{"-pa", "-pz", "--app", "--erl", "--sname", "--name", "--cookie", "--boot", "--vm-args", "--remsh", "--logger-otp-reports", "--logger-sasl-reports", "--boot-var"}}
	return map[string]*ecoInterp{
		"julia": {lang: "julia", code: []string{"-e", "--eval", "-E", "--print"}, script: []string{"-L", "--load"},
			values: []string{"-t", "--threads", "-p", "--procs", "-J", "--sysimage", "-C", "--cpu-target", "--machine-file", "-H", "--home"}},
		"elixir": elixir,
		"iex":    elixir,
		"erl": {lang: "erlang", code: []string{"-eval"}, values: []string{"-sname", "-name", "-setcookie", "-config", "-boot", "-args_file", "-mode", "-remsh", "-kernel", "-env", "-hosts", "-pipe_dir"},
			multi: []string{"-pa", "-pz", "-s", "-run", "-extra"}, noScript: true},
		"bb": {lang: "clojure", code: []string{"-e", "--eval"}, script: []string{"-f", "--file"},
			values: []string{"-m", "--main", "-cp", "--classpath", "--config", "--deps-root", "-x", "--exec", "--init", "--nrepl-server", "--socket-repl"}, tasks: true},
		"raku":   {lang: "raku", code: []string{"-e"}, values: []string{"-I", "-M", "--target", "--ll-exception"}},
		"rakudo": {lang: "raku", code: []string{"-e"}, values: []string{"-I", "-M", "--target"}},
		"swipl": {lang: "prolog", code: []string{"-g", "-t"}, script: []string{"-s", "-l", "-f"},
			values: []string{"-p", "-x", "-F", "--home", "--stack-limit", "--table-space"}},
		// TypeScript runners: node's command line with a TypeScript compiler in front (tsx.is,
		// typestrong.org/ts-node/docs/options).
		"tsx":     {lang: "node", code: []string{"-e", "--eval", "-p", "--print"}, values: []string{"--tsconfig", "--import", "--require", "-r"}},
		"ts-node": {lang: "node", code: []string{"-e", "--eval", "-p", "--print"}, values: []string{"-r", "--require", "-P", "--project", "-C", "--compiler", "-O", "--compilerOptions", "--cwd", "--dir"}},
		"jbang": {lang: "java", code: []string{"--code"}, values: []string{"--java", "-j", "--deps", "--repos", "--cp", "--class-path", "-m", "--main",
			"--source", "-s", "--files", "--catalog", "--javaagent", "-R", "--runtime-option", "-C", "--compile-option", "-N", "--native-option"},
			scriptExt: []string{".java", ".jsh", ".kt", ".groovy", ".md", ".jar"}},
		"gforth": {lang: "forth", code: []string{"-e", "--evaluate"}, values: []string{"-i", "--image-file", "-m", "--dictionary-size",
			"-d", "--data-stack-size", "-r", "--return-stack-size", "-f", "--fp-stack-size", "-l", "--locals-stack-size", "-p", "--path"}},
	}
}}

// ecoInlineCode returns the inline code of an ecosystem interpreter's command line.
func (e *ecoInterp) inlineCode(args []string) (string, bool) {
	var parts []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case hasWord(e.code, a) && i+1 < len(args):
			parts = append(parts, args[i+1])
			i++
		case hasWord(e.code2, a) && i+2 < len(args):
			parts = append(parts, args[i+2])
			i += 2
		case hasWord(e.values, a) || hasWord(e.script, a):
			i++
		case hasWord(e.multi, a):
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "\n"), true
}

// executedFile returns the script an ecosystem interpreter's command line runs, "" for none.
func (e *ecoInterp) executedFile(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) && !e.noScript {
				return args[i+1]
			}
			return ""
		case hasWord(e.script, a) && i+1 < len(args):
			return args[i+1]
		case hasWord(e.code, a) || hasWord(e.values, a):
			i++
		case hasWord(e.code2, a):
			i += 2
		case hasWord(e.multi, a):
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case strings.HasPrefix(a, "-"):
		case e.noScript:
			return ""
		case e.tasks && !strings.ContainsAny(a, "./"):
			return "" // a task of the project's bb.edn, judged as the tool's task
		case strings.Contains(a, "://") || len(e.scriptExt) > 0 && !hasSuffixAny(a, e.scriptExt):
			return "" // a URL or a catalogue alias: fetched, not the project's file
		default:
			return a
		}
	}
	return ""
}

// hasCode reports whether the command line carries inline code (then no operand is a script:
// julia -e CODE ARGS… passes ARGS to the code).
func (e *ecoInterp) hasCode(args []string) bool {
	_, ok := e.inlineCode(args)
	return ok
}

func hasWord(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// elixirScriptCmd returns the command elixir -S or iex -S runs — the script found on PATH
// with the arguments after it (iex -S mix phx.server runs mix phx.server inside the shell) —
// or nil when the command line has no -S.
func elixirScriptCmd(name string, args []string) []string {
	if name != "elixir" && name != "iex" {
		return nil
	}
	e := ecoInterps.get()[name]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-S" && i+1 < len(args):
			if args[i+1] == "mix" && i+2 == len(args) {
				return []string{"mix", "run"} // Mix's default task (Mix.Project config :default_task)
			}
			return args[i+1:]
		case hasWord(e.code, a) || hasWord(e.values, a) || hasWord(e.script, a):
			i++
		case hasWord(e.code2, a):
			i += 2
		case !strings.HasPrefix(a, "-"):
			return nil // a script file: its own arguments follow
		}
	}
	return nil
}

// ecoCodeLangs are the capability tables of the ecosystem languages: the calls that run
// programs, evaluate code, use the network or sockets, delete, read or write files, read the
// environment and decode data. Sources: Julia Base ("Running External Programs", Filesystem,
// Downloads, Sockets, Base64); Elixir's System, Code, File, Port and Erlang's os, httpc,
// gen_tcp, file modules; Babashka's babashka.process, babashka.fs, babashka.http-client and
// clojure.java.shell; Raku's run/shell/EVAL and IO; SWI-Prolog's shell/1, process_create/3,
// http_open/3 and file predicates; Gforth's system and file words.
func ecoCodeLangs() map[string]map[string]capEntry {
	return map[string]map[string]capEntry{
		"julia": {
			"run": {capExec, true}, "pipeline": {capExec, true}, "success": {capExec, true}, "Cmd": {capExec, true}, "addenv": {capExec, true},
			"eval": {capEval, true}, "Meta.parse": {capEval, true}, "include": {capEval, true}, "include_string": {capEval, true}, "evalfile": {capEval, true},
			"Core.eval": {capEval, true}, "download": {capNet, true}, "Downloads.download": {capNet, true}, "Downloads": {capNet, false},
			"HTTP.get": {capNet, true}, "HTTP.post": {capNet, true}, "HTTP.request": {capNet, true}, "HTTP": {capNet, false},
			"connect": {capSocket, true}, "Sockets": {capSocket, false}, "listen": {capSocket, true},
			"rm": {capDelete, true}, "Base.rm": {capDelete, true}, "read": {capRead, true}, "readlines": {capRead, true}, "readchomp": {capRead, true},
			"open": {capRead, true}, "write": {capWrite, true}, "cp": {capWrite, true}, "mv": {capWrite, true}, "chmod": {capWrite, true},
			"symlink": {capWrite, true}, "ENV": {capEnv, false}, "base64decode": {capDecode, true}, "hex2bytes": {capDecode, true},
			"ccall": {capDynamic, true}, "@ccall": {capDynamic, false}, "Libdl": {capDynamic, false}, "addprocs": {capFork, true},
		},
		"elixir": {
			"System.cmd": {capExec, false}, "System.shell": {capExec, false}, "Port.open": {capExec, false}, "os.cmd": {capExec, false},
			"Code.eval_string": {capEval, false}, "Code.eval_file": {capEval, false}, "Code.eval_quoted": {capEval, false},
			"Code.require_file": {capEval, false}, "Code.compile_string": {capEval, false}, "Code.load_file": {capEval, false},
			"httpc": {capNet, false}, "HTTPoison": {capNet, false}, "Req": {capNet, false}, "Finch": {capNet, false}, "Tesla": {capNet, false},
			"Mint.HTTP": {capNet, false}, "gen_tcp": {capSocket, false}, "gen_udp": {capSocket, false}, "ssl": {capSocket, false},
			"File.rm": {capDelete, false}, "File.rm_rf": {capDelete, false}, "File.rmdir": {capDelete, false},
			"File.read": {capRead, false}, "File.stream": {capRead, false}, "File.write": {capWrite, false}, "File.cp": {capWrite, false},
			"File.cp_r": {capWrite, false}, "File.rename": {capWrite, false}, "File.ln_s": {capWrite, false}, "File.chmod": {capWrite, false},
			"System.get_env": {capEnv, false}, "System.fetch_env": {capEnv, false}, "Base.decode64": {capDecode, false},
			"Base.decode16": {capDecode, false}, "apply": {capDynamic, false}, "spawn": {capFork, false},
		},
		"erlang": {
			"cmd": {capExec, true}, "open_port": {capExec, true}, "erl_eval": {capEval, false}, "erl_scan": {capEval, false},
			"load_binary": {capEval, true}, "httpc": {capNet, false}, "inets": {capNet, false}, "gen_tcp": {capSocket, false},
			"gen_udp": {capSocket, false}, "ssl": {capSocket, false}, "del_dir_r": {capDelete, true}, "del_dir": {capDelete, true},
			"delete": {capDelete, true}, "read_file": {capRead, true}, "consult": {capRead, true}, "write_file": {capWrite, true},
			"copy": {capWrite, true}, "rename": {capWrite, true}, "getenv": {capEnv, true}, "decode": {capDecode, true},
			"apply": {capDynamic, true}, "spawn": {capFork, true},
		},
		// Clojure is read case-folded, so that its hyphenated names (load-string) are words.
		"clojure": {
			"clojure.java.shell": {capExec, false}, "babashka.process": {capExec, false}, "sh": {capExec, false}, "shell": {capExec, false},
			"process": {capExec, false}, "processbuilder": {capExec, false}, "runtime": {capExec, false}, "exec": {capExec, false},
			"eval": {capEval, false}, "load-string": {capEval, false}, "load-file": {capEval, false}, "load-reader": {capEval, false},
			"read-string": {capEval, false}, "babashka.http-client": {capNet, false}, "http": {capNet, false}, "clj-http": {capNet, false},
			"org.httpkit.client": {capNet, false}, "java.net.url": {capNet, false}, "java.net.socket": {capSocket, false},
			"delete": {capDelete, false}, "delete-tree": {capDelete, false}, "delete-file": {capDelete, false}, "delete-if-exists": {capDelete, false},
			"slurp": {capRead, false}, "spit": {capWrite, false}, "copy": {capWrite, false}, "move": {capWrite, false},
			"write-bytes": {capWrite, false}, "write-lines": {capWrite, false}, "getenv": {capEnv, false}, "base64": {capDecode, false},
			"b64": {capDecode, false},
		},
		"raku": {
			"run": {capExec, false}, "shell": {capExec, false}, "qx": {capExec, false}, "qqx": {capExec, false}, "Proc::Async": {capExec, false},
			"EVAL": {capEval, false}, "EVALFILE": {capEval, false}, "HTTP::UserAgent": {capNet, false}, "HTTP::Tiny": {capNet, false},
			"Cro::HTTP::Client": {capNet, false}, "LWP::Simple": {capNet, false}, "IO::Socket::INET": {capSocket, false},
			"IO::Socket::Async": {capSocket, false}, "unlink": {capDelete, false}, "rmdir": {capDelete, false}, "slurp": {capRead, false},
			"spurt": {capWrite, false}, "copy": {capWrite, false}, "rename": {capWrite, false}, "move": {capWrite, false}, "ENV": {capEnv, false},
			"MIME::Base64": {capDecode, false},
		},
		"prolog": {
			"shell": {capExec, false}, "process_create": {capExec, false}, "http_open": {capNet, false}, "http_get": {capNet, false},
			"http_post": {capNet, false}, "tcp_connect": {capSocket, false}, "tcp_socket": {capSocket, false}, "delete_file": {capDelete, false},
			"delete_directory": {capDelete, false}, "read_file_to_string": {capRead, false}, "read_term_from_atom": {capEval, false},
			"term_to_atom": {capEval, false}, "load_files": {capEval, false}, "consult": {capEval, false}, "getenv": {capEnv, false},
			"base64": {capDecode, false}, "open": {capRead, false},
		},
		// Forth is read case-folded, so that its hyphenated words (open-file) are words.
		"forth": {
			"system": {capExec, false}, "sh": {capExec, false}, "evaluate": {capEval, false}, "included": {capEval, false},
			"include": {capEval, false}, "require": {capEval, false}, "delete-file": {capDelete, false}, "open-file": {capRead, false},
			"read-file": {capRead, false}, "write-file": {capWrite, false}, "create-file": {capWrite, false}, "rename-file": {capWrite, false},
			"getenv": {capEnv, false},
		},
	}
}

func hasSuffixAny(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// gradleForeignScript reports a Gradle run whose init script, build file or settings file is
// named by a URL or lies in a temporary directory: build logic fetched or dropped there runs
// with the user's rights, not the project's reviewed build (docs.gradle.org, "Initialization
// Scripts": -I/--init-script; "Command-Line Interface": -b, -c).
func gradleForeignScript(c *execCtx, s *Segment) (pkgOp, bool) {
	for _, o := range []string{"-I", "--init-script", "-b", "--build-file", "-c", "--settings-file"} {
		v, ok := optValue(s.Args[1:], o)
		if !ok {
			continue
		}
		if strings.Contains(v, "://") {
			return pkgOp{pkgUntrusted, "Runs Gradle with build logic from " + v + " (" + o + "), code fetched from the network"}, true
		}
		if t := c.target(v); t.zone == ZoneTemp {
			return pkgOp{pkgUntrusted, "Runs Gradle with build logic from " + v + " (" + o + "), a temporary location outside the project"}, true
		}
	}
	return pkgOp{}, false
}
