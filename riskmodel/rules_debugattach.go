package riskmodel

// Attaching a debugger, tracer or sampling profiler to a process that is already running
// reads that process's memory: its heap, its stack, the buffers of every read and write it
// makes. docs/policy.md puts process memory among the credential stores read without need
// (MITRE ATT&CK T1003.007 and T1055.008: ptrace on other processes); debugging the project's
// own program is started through the tool instead (gdb ./build/app, strace ./a.out,
// py-spy record -- python main.py) and judged as running that program (debuggers.go).
func debugAttachRules() []*Rule {
	return []*Rule{
		{
			ID: "cred.process-attach", Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Attaches a debugger or tracer to a running process, which reads its memory",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) < 2 {
					return "", false
				}
				args := s.Args[1:]
				what, ok := "", false
				switch s.Name() {
				case "gdb":
					what, ok = gdbAttach(args)
				case "lldb":
					what, ok = lldbAttach(args)
				case "strace", "ltrace":
					ok = tracerAttaches(args)
				case "gcore":
					ok = len(s.positional(0, "-o")) > 0
				case "py-spy", "rbspy", "heaptrack":
					ok = samplerAttaches(args)
				case "perf":
					ok = args[0] == "trace" && samplerAttaches(args[1:])
				case "memray", "pyrasite":
					ok = s.Name() == "pyrasite" || args[0] == "attach"
				}
				if !ok {
					return "", false
				}
				if what != "" {
					return "Runs " + s.Name() + " attached to the running process " + capText(what) + ", which reads its memory", true
				}
				return "Runs " + s.Name() + " attached to a running process, which reads its memory", true
			},
		},
	}
}
