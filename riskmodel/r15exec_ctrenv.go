package riskmodel

import "strings"

// A running workload's environment is where its secrets live: twelve-factor services take
// database passwords, API keys and signing keys as environment variables, and Kubernetes
// injects Secrets the same way. Printing that environment reads every one of them at once:
// `docker inspect X --format '{{.Config.Env}}'`, `docker inspect X | jq '.[0].Config.Env'`,
// `docker exec X env`, `kubectl exec POD -- printenv`, `kubectl get deploy X -o
// jsonpath='{..env}'`, `kubectl set env deploy/X --list` (Docker CLI reference: docker
// inspect, docker exec; kubectl reference: exec, get -o jsonpath, set env --list; MITRE
// ATT&CK T1552.007 "Container API"). docs/policy.md: reading one production secret for a
// stated reason is asked, a bulk read of production secrets is denied; a whole environment
// is a bulk read, so a production-named container, pod, deployment, namespace or context is
// denied and any other is asked.

// envDumpTarget returns what s dumps the environment of, "" when s dumps none.
func envDumpTarget(c *execCtx, s *Segment) string {
	if len(s.Args) < 2 {
		return ""
	}
	tool := baseName(s.Args[0])
	args := s.Args[1:]
	switch tool {
	case "docker", "podman", "nerdctl":
		if args[0] == "container" && len(args) > 1 {
			args = args[1:]
		}
		switch args[0] {
		case "inspect":
			for i, a := range args {
				if (a == "--format" || a == "-f") && i+1 < len(args) && strings.Contains(args[i+1], "Env") {
					return strings.Join(args[1:], " ")
				}
				if strings.HasPrefix(a, "--format=") && strings.Contains(a, "Env") {
					return strings.Join(args[1:], " ")
				}
			}
			for _, o := range c.segs {
				if o.PipeIn == s && len(o.Args) > 0 && baseName(o.Args[0]) == "jq" && strings.Contains(strings.Join(o.Args[1:], " "), "Env") {
					return strings.Join(args[1:], " ")
				}
			}
		case "exec":
			rest := skipOpts(args[1:], map[string]bool{"-e": true, "--env": true, "-u": true, "--user": true, "-w": true, "--workdir": true, "--env-file": true})
			if len(rest) >= 2 && envPrinter(rest[1:]) {
				return rest[0]
			}
		}
	case "kubectl", "oc":
		// The flags before the verb (kubectl -n prod exec …) are all valued ones.
		for len(args) > 1 && strings.HasPrefix(args[0], "-") {
			if strings.Contains(args[0], "=") {
				args = args[1:]
			} else {
				args = args[2:]
			}
		}
		switch args[0] {
		case "exec":
			for i, a := range args {
				if a == "--" && i+1 < len(args) && envPrinter(args[i+1:]) {
					return strings.Join(args[1:i], " ")
				}
			}
		case "get":
			for i, a := range args {
				v := ""
				if a == "-o" && i+1 < len(args) {
					v = args[i+1]
				} else if strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--output=") {
					v = a
				}
				if strings.Contains(v, "jsonpath") && strings.Contains(v, ".env") {
					return strings.Join(args[1:], " ")
				}
			}
		case "set":
			if len(args) > 1 && args[1] == "env" {
				for _, a := range args {
					if a == "--list" {
						return strings.Join(args[2:], " ")
					}
				}
			}
		}
	}
	return ""
}

// envPrinter reports a command that prints its whole environment: env or printenv with no
// command to run, or a shell told to run one of them.
func envPrinter(cmd []string) bool {
	switch baseName(cmd[0]) {
	case "env", "printenv":
		for _, a := range cmd[1:] {
			if !strings.HasPrefix(a, "-") {
				return false // env NAME=… CMD runs CMD; printenv NAME prints one variable
			}
		}
		return true
	case "sh", "bash", "ash", "dash", "zsh":
		if len(cmd) >= 3 && (cmd[1] == "-c" || strings.HasPrefix(cmd[1], "-") && !strings.HasPrefix(cmd[1], "--") && strings.HasSuffix(cmd[1], "c")) { // -c, -lc, -ic
			f := strings.Fields(cmd[2])
			return len(f) > 0 && (f[0] == "env" || f[0] == "printenv") && (len(f) == 1 || f[1] == "|")
		}
	case "cat":
		return len(cmd) == 2 && strings.HasPrefix(cmd[1], "/proc/") && strings.HasSuffix(cmd[1], "/environ")
	}
	return false
}

func r15ContainerEnvRules() []*Rule {
	return []*Rule{
		{
			ID: "cred.workload-env-prod", Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Prints every environment variable of a production workload, its secrets included",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				t := envDumpTarget(c, s)
				if t == "" || prodWord(s.Args[1:]...) == "" {
					return "", false
				}
				return "Prints the whole environment of " + t + ", a production workload: every secret it was given", true
			},
		},
		{
			ID: "cred.workload-env", Level: High, Category: CatCredentialAccess,
			Message: "Prints every environment variable of a running workload, its secrets included",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				t := envDumpTarget(c, s)
				if t == "" || prodWord(s.Args[1:]...) != "" {
					return "", false
				}
				return "Prints the whole environment of " + t + ": any secret it was given", true
			},
		},
	}
}
