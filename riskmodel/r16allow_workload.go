package riskmodel

import "strings"

// A production workload's secrets reach the transcript by more spellings than the
// environment dumps of r15exec_ctrenv.go: `docker inspect prod-api` with no --format prints
// the container's whole configuration, Config.Env included (Docker CLI reference: docker
// inspect, "return low-level information"); `docker compose -f compose.prod.yml exec web
// env` is docker exec through Compose (docs.docker.com: docker compose exec); `docker exec
// prod-api printenv DATABASE_URL` prints one secret; `kubectl get deploy -o json | jq
// '..env'` selects the env of a pod template. docs/policy.md: one production secret for a
// stated reason is asked, bulk reads of secrets are denied, and inspection is routine only
// when it reveals no secret values. So: a production-named whole inspect is asked at high
// (it may be read for its state), denied when its output is searched for secret words; a
// production-named Compose environment dump is denied; one production secret is asked at high.

// secretFilterWords are what a search of a configuration dump for its secrets greps for.
var secretFilterWords = []string{"pass", "secret", "token", "key", "cred", "auth", "dsn", "database_url", "private"}

// grepsForSecrets reports a consumer of s that searches its output for secret words.
func grepsForSecrets(c *execCtx, s *Segment) bool {
	for _, o := range c.segs {
		if o.PipeIn != s || len(o.Args) < 2 {
			continue
		}
		switch o.Name() {
		case "grep", "egrep", "rg", "ag", "jq", "awk", "sed":
			l := strings.ToLower(strings.Join(o.Args[1:], " "))
			for _, w := range secretFilterWords {
				if strings.Contains(l, w) {
					return true
				}
			}
		}
	}
	return false
}

// wholeInspect returns the container a docker/podman/nerdctl inspect prints in full (no
// --format, or one that prints everything: '{{json .}}'), "" when s is none.
func wholeInspect(s *Segment) string {
	switch s.Name() {
	case "docker", "podman", "nerdctl":
	default:
		return ""
	}
	args := s.Args[1:]
	if len(args) > 1 && args[0] == "container" {
		args = args[1:]
	}
	if len(args) < 2 || args[0] != "inspect" {
		return ""
	}
	var targets []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--format" || a == "-f":
			if i+1 < len(args) && strings.TrimSpace(strings.ReplaceAll(args[i+1], " ", "")) != "{{json.}}" {
				return "" // a chosen field; Env itself is r15exec_ctrenv.go's
			}
			i++
		case strings.HasPrefix(a, "--format="):
			return ""
		case a == "--type":
			if i+1 < len(args) && args[i+1] != "container" {
				return ""
			}
			i++
		case strings.HasPrefix(a, "-"):
		default:
			targets = append(targets, a)
		}
	}
	return strings.Join(targets, " ")
}

// composeEnvDump returns the service a `docker compose … exec|run SERVICE env` prints the
// environment of, with the compose words that name it (files, project), "" when none.
func composeEnvDump(s *Segment) (string, []string) {
	args := s.Args
	switch {
	case s.Name() == "docker-compose" || s.Name() == "podman-compose":
		args = args[1:]
	case (s.Name() == "docker" || s.Name() == "podman") && len(args) > 1 && args[1] == "compose":
		args = args[2:]
	default:
		return "", nil
	}
	var ctx []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if strings.Contains(args[0], "=") || len(args) < 2 {
			ctx = append(ctx, args[0])
			args = args[1:]
			continue
		}
		ctx = append(ctx, args[1])
		args = args[2:]
	}
	if len(args) < 3 || args[0] != "exec" && args[0] != "run" {
		return "", nil
	}
	rest := skipOpts(args[1:], map[string]bool{"-e": true, "--env": true, "-u": true, "--user": true, "-w": true, "--workdir": true, "--index": true})
	if len(rest) >= 2 && envPrinter(rest[1:]) {
		return rest[0], ctx
	}
	return "", nil
}

// oneSecretRead returns the secret variable a command run in a container prints (printenv
// DATABASE_URL, sh -c 'echo $STRIPE_KEY'), "" when none.
func oneSecretRead(cmd []string) string {
	if len(cmd) == 0 {
		return ""
	}
	switch baseName(cmd[0]) {
	case "printenv":
		for _, a := range cmd[1:] {
			if workloadSecretVar(a) {
				return a
			}
		}
	case "sh", "bash", "ash", "dash", "zsh":
		for i, a := range cmd[1:] {
			if strings.HasPrefix(a, "-") && strings.Contains(a, "c") && i+2 < len(cmd) {
				body := cmd[i+2]
				for _, w := range strings.FieldsFunc(body, func(r rune) bool {
					return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
				}) {
					if strings.Contains(body, "$"+w) || strings.Contains(body, "${"+w) {
						if workloadSecretVar(w) {
							return w
						}
					}
				}
			}
		}
	}
	return ""
}

// workloadSecretVar reports an environment variable name that holds a secret in a
// twelve-factor service: the secret words, and connection URLs that carry a password.
func workloadSecretVar(name string) bool {
	u := strings.ToUpper(name)
	if isSecretVar(u) {
		return true
	}
	for _, w := range []string{"DATABASE_URL", "DB_URL", "DSN", "REDIS_URL", "MONGO_URL", "MONGODB_URI", "AMQP_URL", "CONNECTION_STRING"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// execOneSecret returns the workload and the secret a docker/podman exec prints.
func execOneSecret(s *Segment) (string, string) {
	switch s.Name() {
	case "docker", "podman", "nerdctl":
	default:
		return "", ""
	}
	args := s.Args[1:]
	if len(args) > 1 && args[0] == "container" {
		args = args[1:]
	}
	if len(args) < 3 || args[0] != "exec" {
		return "", ""
	}
	rest := skipOpts(args[1:], map[string]bool{"-e": true, "--env": true, "-u": true, "--user": true, "-w": true, "--workdir": true, "--env-file": true})
	if len(rest) < 2 {
		return "", ""
	}
	return rest[0], oneSecretRead(rest[1:])
}

// kubeEnvSelect returns what a kubectl/oc get -o json|yaml piped to jq/yq selecting env
// prints the environment of, "" when none.
func kubeEnvSelect(c *execCtx, s *Segment) string {
	if n := s.Name(); n != "kubectl" && n != "oc" || s.sub(0) != "get" {
		return ""
	}
	o, _ := optValue(s.Args[1:], "-o", "--output")
	if o == "" {
		if a, ok := s.argPrefix("-ojson", "-oyaml", "--output=json", "--output=yaml", "-o=json", "-o=yaml"); ok {
			o = a
		}
	}
	if !strings.Contains(o, "json") && !strings.Contains(o, "yaml") {
		return ""
	}
	for _, x := range c.segs {
		if x.PipeIn == s && (x.Name() == "jq" || x.Name() == "yq") && strings.Contains(strings.Join(x.Args[1:], " "), "env") {
			return strings.Join(s.Args[1:], " ")
		}
	}
	return ""
}

func r16WorkloadRules() []*Rule {
	return []*Rule{
		{
			ID: "cred.workload-prod-secrets", Level: High, Category: CatCredentialAccess,
			CertainWhen: "a production workload's whole environment is printed, or its configuration is searched for secrets",
			Message:     "Reads a production workload's secrets into the transcript",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if t := wholeInspect(s); t != "" && prodWord(s.Args[1:]...) != "" {
					if grepsForSecrets(c, s) {
						c.certainty = certaintySure
						return "Searches the full configuration of " + t + ", a production container, for its secrets", true
					}
					return "Prints the full configuration of " + t + ", a production container, its environment's secrets included", true
				}
				if svc, ctx := composeEnvDump(s); svc != "" && prodWord(append(ctx, svc)...) != "" {
					c.certainty = certaintySure
					return "Prints the whole environment of the production service " + svc + ": every secret it was given", true
				}
				if t, v := execOneSecret(s); v != "" && prodWord(t) != "" {
					return "Prints " + v + ", a secret of the production container " + t, true
				}
				if t := kubeEnvSelect(c, s); t != "" && envDumpTarget(c, s) == "" && prodWord(s.Args[1:]...) != "" {
					c.certainty = certaintySure
					return "Selects the environment of a production workload (" + t + "): every literal secret in it", true
				}
				return "", false
			},
		},
	}
}
