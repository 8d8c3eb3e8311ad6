package riskmodel

import (
	"net/url"
	"path"
	"strings"
)

// This file knows cloud and infrastructure CLIs, containers and databases: what a command
// changes in shared or production systems. As in rules_pkg.go, a command is reduced to ops and
// each rule picks the ops of its kind; runners (npx, bundle exec, aws-vault exec, dotenv, …)
// are looked through, and what they reveal about the environment (a "prod" profile, a
// .env.production file) counts towards "this looks like production".

type cloudKind uint8

const (
	cloudDestroy     cloudKind = iota + 1 // tears down infrastructure or a whole environment
	cloudDestroyData                      // deletes stored data in the cloud (buckets, databases, volumes)
	cloudChange                           // changes real infrastructure or a deployed service
	cloudPreview                          // publishes a preview deployment
	cloudConfig                           // switches which account, cluster or project later commands hit
	cloudReadValues                       // prints configuration that usually holds secrets
	cloudRead                             // inspects infrastructure without changing it
	ctrEscape                             // gets a root shell on the host through a container
	ctrPrivileged                         // a container with host-level privileges
	ctrSecrets                            // hands credentials to a container
	ctrHostAccess                         // a container with access to the host outside the workspace
	ctrRun                                // runs or manages a container
	ctrRemove                             // removes containers or images (recreatable)
	ctrPrune                              // removes containers or images across projects
	ctrVolumeDelete                       // deletes volumes and the data in them
	ctrSecretRead                         // reads secret stores inside a container or pod
	dbDestructive                         // drops, truncates or wipes database data
	dbWriteProd                           // writes to a production-looking or unknown database
	dbWrite                               // writes to a database
	dbProdRead                            // reads a production-looking database
	dbMigrate                             // runs the project's migrations against its dev database
	dbRead                                // reads a database
	cloudLocal                            // changes a local development cluster (kind, minikube, …)
	dbLocalReset                          // wipes data in a database on this machine
	dbEscalate                            // runs code or writes files on the database server, escalates privileges
	dbSecretRead                          // reads server files, password hashes or secret columns
	dbLocalWrite                          // writes to a development database on this machine (rules_dblocal.go)
	dbExfil                               // sends the database's data to another server (sql_netsend.go)
)

type cloudOp = op[cloudKind]

// cloudRule builds the check of a rule that fires on the first cloud (or, for the db kinds,
// database) op of its kind.
func cloudRule(k cloudKind) func(c *execCtx, s *Segment) (string, bool) {
	db := k >= dbDestructive && k != cloudLocal
	return opRule(k, func(c *execCtx, s *Segment) []cloudOp { return cloudOps(c, s, db) })
}

func cloudRules() []*Rule {
	return []*Rule{
		{
			ID: "cloud.destroy", Level: Critical, Category: CatFinancialOrProduction,
			Message: "Tears down infrastructure or a whole environment",
			exec:    cloudRule(cloudDestroy),
		},
		{
			ID: "cloud.destroy-data", Level: Critical, Category: CatDataDeletion,
			Message: "Deletes stored data in the cloud (buckets, databases, volumes)",
			exec:    cloudRule(cloudDestroyData),
		},
		{
			ID: "cloud.change", Level: High, Category: CatFinancialOrProduction,
			Message: "Changes real infrastructure or a deployed service",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if cliTokenOf(s) != nil {
					return "", false // prints a token, changes nothing: cred.cli-token (r16allow_tokens.go)
				}
				return cloudRule(cloudChange)(c, s)
			},
		},
		{
			ID: "cloud.deploy-preview", Level: Medium, Category: CatNetworkEgress,
			Message: "Publishes a preview deployment of the project to a public URL",
			exec:    cloudRule(cloudPreview),
		},
		{
			ID: "cloud.config-switch", Level: Medium, Category: CatSystemModification,
			Message: "Switches which account, cluster or project later commands act on",
			exec:    cloudRule(cloudConfig),
		},
		{
			ID: "cloud.read-values", Level: Medium, Category: CatCredentialAccess,
			Message: "Prints configuration or values that usually hold secrets",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if tokenUsedByOwnVendor(c, s) || tokenToOwnLogin(c, s) {
					return "", false // a token for the vendor's own API (rules_r10exec.go) or registry (r16allow_tokens.go)
				}
				return cloudRule(cloudReadValues)(c, s)
			},
		},
		{
			ID: "cloud.read", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Inspects infrastructure or containers without changing them",
			exec:    cloudRule(cloudRead),
		},
		{
			ID: "container.escape", Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Gets a root shell on the host through a container",
			exec:    cloudRule(ctrEscape),
		},
		{
			ID: "container.privileged", Level: High, Category: CatPrivilegeEscalation,
			CertainWhen: "it is privileged, shares the host's namespaces or mounts the runtime socket or system directories",
			Message:     "Runs a container with host-level privileges",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				msg, ok := cloudRule(ctrPrivileged)(c, s)
				if ok && !ctrHomeMountOnly(msg) {
					c.certainty = certaintySure // policy: privileged containers, the docker socket
				}
				return msg, ok
			},
		},
		{
			ID: "container.secrets", Level: High, Category: CatCredentialAccess,
			Message: "Hands the user's credentials to a container",
			exec:    cloudRule(ctrSecrets),
		},
		{
			ID: "container.secret-read", Level: High, Category: CatCredentialAccess,
			Message: "Reads secret stores inside a container or pod (mounted secrets, service-account tokens, key files)",
			exec:    cloudRule(ctrSecretRead),
		},
		{
			ID: "container.host-access", Level: Medium, Category: CatSystemModification,
			Message: "Runs a container with access to the host outside the workspace",
			exec:    cloudRule(ctrHostAccess),
		},
		{
			ID: "container.run", Level: Medium, Category: CatNone, Contained: true,
			Message: "Runs or manages a container; reversible",
			exec:    cloudRule(ctrRun),
		},
		{
			ID: "container.remove", Level: Medium, Category: CatDataDeletion, Contained: true,
			Message: "Removes containers or images that can be recreated",
			exec:    cloudRule(ctrRemove),
		},
		{
			ID: "container.prune", Level: Medium, Category: CatDataDeletion,
			Message: "Removes containers, networks or images across all projects",
			exec:    cloudRule(ctrPrune),
		},
		{
			ID: "container.volume-delete", Level: High, Category: CatDataDeletion,
			Message: "Deletes container volumes and the data in them",
			exec:    cloudRule(ctrVolumeDelete),
		},
		{
			ID: "db.sql-escalate", Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Runs SQL that executes code or writes files on the database server, or escalates privileges",
			exec:    cloudRule(dbEscalate),
		},
		{
			ID: "db.sql-secret-read", Level: High, Category: CatCredentialAccess,
			Message: "Runs SQL that reads server files, password hashes or secret columns in bulk",
			exec:    cloudRule(dbSecretRead),
		},
		{
			ID: "db.destructive", Level: Critical, Category: CatDataDeletion,
			Message: "Drops, truncates or wipes database data",
			exec:    cloudRule(dbDestructive),
		},
		{
			ID: "db.write-prod", Level: High, Category: CatFinancialOrProduction,
			Message: "Writes to a database that looks like production, or whose environment cannot be known",
			exec:    cloudRule(dbWriteProd),
		},
		{
			ID: "db.write", Level: Medium, Category: CatNone,
			Message: "Writes to a database",
			exec:    cloudRule(dbWrite),
		},
		{
			ID: "db.prod-read", Level: Medium, Category: CatReadOnly,
			Message: "Reads a database that looks like production",
			exec:    cloudRule(dbProdRead),
		},
		{
			ID: "db.migrate", Level: Medium, Category: CatNone, Contained: true,
			Message: "Applies the project's migrations to its development database",
			exec:    cloudRule(dbMigrate),
		},
		{
			ID: "db.local-reset", Level: Medium, Category: CatDataDeletion, Contained: true,
			Message: "Wipes data in a development database on this machine",
			exec:    cloudRule(dbLocalReset),
		},
		{
			ID: "cloud.local-cluster", Level: Medium, Category: CatNone, Contained: true,
			Message: "Changes a local development cluster",
			exec:    cloudRule(cloudLocal),
		},
		{
			ID: "db.read", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Reads a database",
			exec:    cloudRule(dbRead),
		},
	}
}

// cloudKnownBins are the CLIs this file judges; yarn/pnpm of them are looked through.
var cloudKnownBins = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"terraform": true, "tofu": true, "terragrunt": true, "pulumi": true, "kubectl": true, "oc": true,
		"helm": true, "helmfile": true, "aws": true, "gcloud": true, "gsutil": true, "bq": true, "az": true, "doctl": true, "heroku": true,
		"fly": true, "flyctl": true, "vercel": true, "netlify": true, "firebase": true, "supabase": true, "serverless": true, "sls": true,
		"cdk": true, "sam": true, "eb": true, "awslocal": true, "ansible-playbook": true, "ansible": true, "stripe": true, "wrangler": true, "argocd": true,
		"skaffold": true, "prisma": true, "knex": true, "sequelize": true, "typeorm": true, "drizzle-kit": true, "alembic": true,
		"flyway": true, "liquibase": true, "dbmate": true, "goose": true, "atlas": true, "hasura": true}
}}

// cloudLayers returns a segment and the commands its runners run, outermost first, with the
// environment hints picked up on the way.
func cloudLayers(s *Segment) ([]*Segment, []string) {
	layers := []*Segment{s}
	var hints []string
	cur := s
	for i := 0; i < 8; i++ {
		next, hint, ok := pkgRunnerInner(cur)
		if !ok {
			break
		}
		if hint != "" {
			hints = append(hints, hint)
		}
		layers = append(layers, next)
		cur = next
	}
	return layers, hints
}

// cloudOps says what a segment does to infrastructure and containers, or (db) to databases.
func cloudOps(c *execCtx, s *Segment, db bool) []cloudOp {
	if db {
		return c.memoCloud(c.dbMemo, &c.dbLast, s, true)
	}
	return c.memoCloud(c.cloudMemo, &c.cloudLast, s, false)
}

func cloudOpsCompute(c *execCtx, s *Segment, db bool) []cloudOp {
	layers, hints := cloudLayers(s)
	var ops []cloudOp
	for _, l := range layers {
		if db {
			ops = append(ops, dbOps(c, l, hints)...)
			continue
		}
		ops = append(ops, cloudCLIOps(c, l, hints)...)
		ops = append(ops, containerOps(c, l)...)
	}
	return ops
}

// ---- production detection ----

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// prodLike reports a word naming production: "prod", "production" or "prd" as a word of
// its own ("prod-db", "acme_production", "$PROD_DATABASE_URL"), not "products".
func prodLike(w string) bool {
	l := strings.ToLower(w)
	for _, word := range []string{"prod", "prd"} {
		for i := 0; i < len(l); {
			j := strings.Index(l[i:], word)
			if j < 0 {
				break
			}
			j += i
			k := j + len(word)
			if word == "prod" && strings.HasPrefix(l[k:], "uction") {
				k += len("uction")
			}
			if (j == 0 || !isLetter(l[j-1])) && (k == len(l) || !isLetter(l[k])) {
				return true
			}
			i = j + 1
		}
	}
	return false
}

// prodWord returns the first word that looks like production.
func prodWord(words ...string) string {
	for _, w := range words {
		if prodLike(w) {
			return w
		}
	}
	return ""
}

// envProd returns an assignment of this request that points at production
// (RAILS_ENV=production, DATABASE_URL=postgres://prod-db/…), "" if none.
func envProd(c *execCtx, s *Segment) string {
	for _, kv := range requestAssigns(c, s) {
		k, v, _ := strings.Cut(kv, "=")
		ku := strings.ToUpper(k)
		if (strings.Contains(ku, "ENV") || strings.Contains(ku, "DATABASE") || strings.Contains(ku, "DB") || strings.Contains(ku, "URL") ||
			strings.Contains(ku, "HOST") || strings.Contains(ku, "SETTINGS") || strings.Contains(ku, "STAGE") || strings.Contains(ku, "PROFILE") ||
			strings.HasPrefix(ku, "PG") || strings.HasPrefix(ku, "MYSQL") || strings.Contains(ku, "CONTEXT")) && prodLike(v) {
			return kv
		}
	}
	return ""
}

// cloudWhere says where a command acts when that looks like production, for messages.
func cloudWhere(c *execCtx, s *Segment, hints []string) string {
	if w := prodWord(append(append([]string{}, s.Args[1:]...), hints...)...); w != "" {
		return prodNote(w)
	}
	if kv := envProd(c, s); kv != "" {
		return " (" + kv + ")"
	}
	return ""
}

// prodNote says which word made a target look like production, for messages.
func prodNote(w string) string {
	switch strings.ToLower(strings.Trim(w, "-=")) {
	case "prod", "production", "prd":
		return " (production)"
	}
	return " (" + capText(w) + " looks like production)"
}

// ---- cloud CLIs ----

func cloudCLIOpsByName(c *execCtx, s *Segment, hints []string) []cloudOp {
	if len(s.Args) == 0 {
		return nil
	}
	name := s.Name()
	switch name {
	case "terraform", "tofu", "terragrunt":
		return cloudTerraform(c, s, hints)
	case "pulumi":
		return cloudPulumi(c, s, hints)
	case "kubectl", "oc":
		return cloudKubectl(c, s, hints)
	case "helm", "helmfile":
		return localClusterOps(s, cloudHelm(c, s, hints), "--kube-context")
	case "aws", "awslocal":
		return localEndpointOps(c, s, cloudAWS(c, s, hints), hints)
	case "gcloud", "gsutil", "bq":
		return cloudGCP(c, s, hints)
	case "az", "doctl":
		return cloudAzDO(c, s, hints)
	case "heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "supabase", "wrangler":
		return cloudPaaS(c, s, hints)
	case "serverless", "sls", "cdk", "sam", "eb", "ansible-playbook", "ansible", "ansible-vault", "stripe", "argocd", "skaffold", "kind", "minikube", "k3d":
		return cloudMisc(c, s, hints)
	}
	return nil
}

func one(k cloudKind, msg string) []cloudOp { return []cloudOp{{k, msg}} }

func cloudTerraform(c *execCtx, s *Segment, hints []string) []cloudOp {
	p := s.positional(0, "-var", "-var-file", "-target", "-state", "-state-out", "-out", "-lock-timeout", "-parallelism", "-replace", "-backend-config", "-chdir")
	if len(p) > 0 && (p[0] == "run-all" || p[0] == "run") {
		p = p[1:]
	}
	if len(p) == 0 {
		return nil
	}
	tool := s.Name()
	where := cloudWhere(c, s, hints)
	sub := p[0]
	switch sub {
	case "destroy":
		return one(cloudDestroy, "Destroys every resource "+tool+" manages here with "+tool+" destroy"+where)
	case "apply":
		if s.arg("-destroy", "--destroy") {
			return one(cloudDestroy, "Destroys every resource "+tool+" manages here with "+tool+" apply -destroy"+where)
		}
		what := "the planned changes"
		if len(p) > 1 {
			what = "the plan " + p[1]
		}
		return one(cloudChange, "Applies "+what+" to real infrastructure with "+tool+" apply"+where)
	case "import", "taint", "untaint", "refresh", "force-unlock", "test":
		return one(cloudChange, "Changes real infrastructure or its state with "+joinArgs(s.Args)+where)
	case "state":
		if len(p) > 1 && (p[1] == "list" || p[1] == "show" || p[1] == "pull") {
			return one(cloudRead, "Inspects the "+tool+" state with "+joinArgs(s.Args))
		}
		return one(cloudChange, "Edits the shared "+tool+" state with "+joinArgs(s.Args)+", which decides what later applies create or destroy"+where)
	case "workspace":
		if len(p) > 1 && (p[1] == "list" || p[1] == "show") {
			return one(cloudRead, "Lists "+tool+" workspaces")
		}
		if len(p) > 1 && p[1] == "delete" {
			return one(cloudChange, "Deletes a "+tool+" workspace and its state with "+joinArgs(s.Args))
		}
		return one(cloudConfig, "Switches the "+tool+" workspace with "+joinArgs(s.Args)+", so later plans and applies target it")
	case "plan", "validate", "show", "output", "providers", "version", "graph", "init", "get", "console", "metadata", "-version", "--version", "login", "logout", "hclfmt", "render-json", "output-module-groups":
		if sub == "login" || sub == "logout" {
			return nil
		}
		return one(cloudRead, "Inspects the infrastructure code with "+joinArgs(s.Args)+" (no changes)")
	}
	return nil
}

func cloudPulumi(c *execCtx, s *Segment, hints []string) []cloudOp {
	p := s.positional(0, "-s", "--stack", "-C", "--cwd", "--target", "-t", "--config-file", "-m", "--message", "--parallel", "-p")
	if len(p) == 0 {
		return nil
	}
	where := cloudWhere(c, s, hints)
	switch p[0] {
	case "destroy", "down", "dn":
		return one(cloudDestroy, "Destroys every resource of the Pulumi stack with pulumi destroy"+where)
	case "up", "update", "u", "refresh", "import", "cancel", "watch":
		return one(cloudChange, "Changes real infrastructure with pulumi "+p[0]+where)
	case "state":
		return one(cloudChange, "Edits the Pulumi state with "+joinArgs(s.Args)+where)
	case "stack":
		if len(p) > 1 {
			switch p[1] {
			case "rm", "remove":
				return one(cloudChange, "Removes the Pulumi stack and its history with "+joinArgs(s.Args)+where)
			case "select", "init", "change-secrets-provider", "rename", "tag":
				return one(cloudConfig, "Switches or changes the Pulumi stack with "+joinArgs(s.Args))
			case "output", "export":
				if s.arg("--show-secrets") {
					return one(cloudReadValues, "Prints the stack's secrets with "+joinArgs(s.Args))
				}
			}
		}
		return one(cloudRead, "Inspects Pulumi stacks with "+joinArgs(s.Args))
	case "config":
		if len(p) > 1 && (p[1] == "set" || p[1] == "rm" || p[1] == "set-all" || p[1] == "rm-all" || p[1] == "cp" || p[1] == "refresh") {
			return one(cloudConfig, "Changes the stack's configuration with "+joinArgs(s.Args))
		}
		if s.arg("--show-secrets") {
			return one(cloudReadValues, "Prints the stack's configuration with its secrets")
		}
		return one(cloudRead, "Reads the stack's configuration")
	case "preview", "pre", "whoami", "about", "version", "logs", "plugin", "schema", "package", "convert", "new", "gen-completion":
		return one(cloudRead, "Inspects the Pulumi project with "+joinArgs(s.Args)+" (no changes)")
	}
	return nil
}

var kubectlValueOpts = []string{"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "-l",
	"--selector", "-o", "--output", "-f", "--filename", "-c", "--container", "--field-selector", "--sort-by", "--as", "--as-group", "-L",
	"--label-columns", "--tail", "--since", "--since-time", "--type", "--image", "--replicas", "--timeout", "--grace-period", "--template",
	"-k", "--kustomize", "--patch", "--request-timeout", "--cache-dir", "--certificate-authority", "--client-certificate", "--client-key",
	"--tls-server-name", "--chunk-size", "--max-log-requests", "--field-manager", "--cascade", "--for", "--port", "--address", "--overrides",
	"--restart", "--env", "--limits", "--requests", "--min", "--max", "--cpu-percent", "--target-port", "--profile"}

// localKubeContexts are context-name prefixes of clusters that run on the developer's
// machine; changing them is development, not production.
var localKubeContexts = []string{"kind-", "minikube", "docker-desktop", "docker-for-desktop", "k3d-", "rancher-desktop", "colima", "orbstack"}

// cloudKubectl judges a kubectl/oc command; on a local development cluster its changes are
// contained.
func cloudKubectl(c *execCtx, s *Segment, hints []string) []cloudOp {
	return localClusterOps(s, cloudKubectlOps(c, s, hints), "--context")
}

// localClusterOps turns changes into local-cluster changes when the command names a local
// development cluster's context with the option opt (kubectl --context, helm --kube-context).
func localClusterOps(s *Segment, ops []cloudOp, opt string) []cloudOp {
	ctx, ok := optValue(s.Args[1:], opt)
	if !ok {
		return ops
	}
	for _, l := range localKubeContexts {
		if strings.HasPrefix(ctx, l) && !prodLike(ctx) {
			for i := range ops {
				switch ops[i].kind {
				case cloudDestroy, cloudDestroyData, cloudChange:
					ops[i] = cloudOp{cloudLocal, ops[i].msg + " (a local cluster)"}
				}
			}
		}
	}
	return ops
}

// localEndpointOps turns the changes of an AWS CLI call into changes of a local emulator when
// the call goes to this machine: --endpoint-url or AWS_ENDPOINT_URL(_SERVICE) naming a
// loopback address (LocalStack on :4566, MinIO, DynamoDB Local), or LocalStack's awslocal
// wrapper, whose endpoint is LocalStack on localhost. The endpoint decides where the request
// goes, so deleting a bucket there deletes test data on this machine, not the cloud's
// (docs/policy.md: local development resources are routine). A production word anywhere in the
// call keeps the cloud's judgement.
func localEndpointOps(c *execCtx, s *Segment, ops []cloudOp, hints []string) []cloudOp {
	if len(ops) == 0 || cloudWhere(c, s, hints) != "" {
		return ops
	}
	ep := ""
	if s.Name() == "awslocal" {
		ep = "LocalStack on localhost"
	}
	if v, ok := optValue(s.Args[1:], "--endpoint-url"); ok {
		ep = v
		if !loopbackURL(v) {
			return ops
		}
	} else if s.Name() == "aws" {
		for _, kv := range requestAssigns(c, s) {
			k, v, _ := strings.Cut(kv, "=")
			if k == "AWS_ENDPOINT_URL" || strings.HasPrefix(k, "AWS_ENDPOINT_URL_") {
				if !loopbackURL(v) {
					return ops
				}
				ep = v
			}
		}
	}
	if ep == "" {
		return ops
	}
	for i := range ops {
		switch ops[i].kind {
		case cloudDestroy, cloudDestroyData, cloudChange:
			ops[i] = cloudOp{cloudLocal, ops[i].msg + " (a local emulator at " + capText(ep) + ")"}
		}
	}
	return ops
}

// loopbackURL reports whether a URL (or bare host:port) names this machine.
func loopbackURL(v string) bool {
	v = strings.Trim(v, `"'`)
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || u.Hostname() == "" {
		return false
	}
	return isLocalHost(strings.ToLower(u.Hostname()))
}

// kubeInlineSpecEscape finds a pod spec given inline (run --overrides, patch -p, a manifest
// fed on stdin to apply/create -f -) that escapes to the node: privileged, the host's PID,
// network or IPC namespace, dangerous capabilities. On any cluster, local ones included, that
// is root on the machine that runs it.
func kubeInlineSpecEscape(s *Segment, verb string) (cloudOp, bool) {
	switch verb {
	case "run", "create", "apply", "patch", "replace", "debug", "set":
	default:
		return cloudOp{}, false
	}
	body := strings.Join(s.Args[1:], " ") + " " + s.Stdin
	if s.PipeIn != nil {
		body += " " + s.PipeIn.Stdin + " " + strings.Join(s.PipeIn.Args, " ")
	}
	m := mcpKubeManifestRisk().FindString(body)
	if m == "" {
		return cloudOp{}, false
	}
	return cloudOp{ctrPrivileged, "Runs kubectl " + verb + " with an inline pod spec that sets " + strings.TrimSpace(m) + ", which gives the pod root access to the node"}, true
}

func cloudKubectlOps(c *execCtx, s *Segment, hints []string) []cloudOp {
	p := s.positional(0, kubectlValueOpts...)
	if len(p) == 0 {
		return nil
	}
	verb := p[0]
	res := ""
	if len(p) > 1 {
		res = strings.ToLower(p[1])
	}
	ns, _ := optValue(s.Args[1:], "-n", "--namespace")
	where := ""
	if ns != "" {
		where = " in the namespace " + ns
	}
	if ctx, ok := optValue(s.Args[1:], "--context"); ok {
		where += " on the context " + ctx
	}
	prod := prodWord(append(append([]string{}, s.Args[1:]...), hints...)...)
	if prod != "" && !prodLike(ns) && !containsArgExact(p[min(2, len(p)):], prod) {
		where += prodNote(prod)
	}
	if envKV := envProd(c, s); envKV != "" && prod == "" {
		prod = envKV
		where += " (" + envKV + ")"
	}
	dry := false
	if v, ok := optValue(s.Args[1:], "--dry-run"); ok && v != "none" {
		dry = true
	} else if s.arg("--dry-run") {
		dry = true
	}
	all := s.arg("--all", "-A", "--all-namespaces")
	tool := s.Name()
	if op, ok := kubeInlineSpecEscape(s, verb); ok && !dry {
		return []cloudOp{op}
	}
	switch verb {
	case "get", "describe", "logs", "top", "explain", "version", "api-resources", "api-versions", "cluster-info", "diff", "events", "wait", "kustomize", "completion", "help":
		if (verb == "get" || verb == "describe") && (strings.HasPrefix(res, "secret") || res == "secrets") {
			if kubeSecretValuesShown(s, verb) {
				return nil // credential rules
			}
			return one(cloudRead, "Lists Kubernetes secrets' names and metadata, without their values, with "+joinArgs(s.Args))
		}
		return one(cloudRead, "Inspects the cluster with "+joinArgs(s.Args))
	case "auth":
		if res == "can-i" || res == "whoami" {
			return one(cloudRead, "Checks cluster permissions with "+joinArgs(s.Args))
		}
		return nil
	case "rollout":
		switch res {
		case "status", "history":
			return one(cloudRead, "Inspects a rollout with "+joinArgs(s.Args))
		case "":
			return nil
		}
		return one(cloudChange, "Runs "+tool+" rollout "+res+" on "+strings.Join(p[2:], " ")+where+", changing what is deployed")
	case "config":
		switch res {
		case "get-contexts", "current-context", "get-clusters", "get-users", "view":
			if res == "view" && s.arg("--raw") {
				return nil // credential rules
			}
			return one(cloudRead, "Shows the kubeconfig with "+joinArgs(s.Args))
		case "use-context", "use", "set-context", "set-credentials", "set-cluster", "delete-context", "delete-cluster", "delete-user", "rename-context", "set", "unset":
			return one(cloudConfig, "Changes the kubeconfig with "+joinArgs(s.Args)+", so later kubectl commands act on another cluster or identity")
		}
		return nil
	case "delete":
		if dry {
			return one(cloudRead, "Shows what "+tool+" delete would remove (--dry-run)")
		}
		switch {
		case res == "ns" || res == "namespace" || res == "namespaces" || res == "project" && tool == "oc" || strings.HasPrefix(res, "namespace/") || strings.HasPrefix(res, "ns/"):
			return one(cloudDestroy, "Deletes the namespace "+strings.Join(p[2:], " ")+" and everything in it"+where)
		case res == "pvc" || res == "pv" || strings.HasPrefix(res, "persistentvolume") || strings.HasPrefix(res, "pvc/") || strings.HasPrefix(res, "pv/"):
			what := strings.Join(p[2:], " ")
			if all {
				what = "(all of them)"
			}
			if prod != "" || prodLike(ns) || all {
				return one(cloudDestroyData, "Deletes persistent volumes "+what+where+"; their data is usually deleted with them")
			}
			return one(cloudChange, "Deletes persistent volumes "+what+where+"; their data is usually deleted with them")
		case all:
			return one(cloudDestroy, "Deletes every "+res+where+" with "+tool+" delete --all")
		case res == "crd" || strings.HasPrefix(res, "customresourcedefinition"):
			return one(cloudDestroy, "Deletes the custom resource definition "+strings.Join(p[2:], " ")+" and every object of that kind in the cluster")
		}
		what := strings.Join(p[1:], " ")
		if f, ok := optValue(s.Args[1:], "-f", "--filename"); ok {
			what = "the resources in " + f
		}
		return one(cloudChange, "Deletes "+capText(what)+" from the cluster"+where)
	case "apply", "create", "replace", "patch", "edit", "scale", "autoscale", "set", "annotate", "label", "taint", "drain", "cordon", "uncordon",
		"expose", "run", "exec", "cp", "attach", "debug", "port-forward", "proxy", "certificate":
		if dry {
			return one(cloudRead, "Validates "+tool+" "+verb+" without changing the cluster (--dry-run)")
		}
		what := strings.Join(p[1:], " ")
		if f, ok := optValue(s.Args[1:], "-f", "--filename", "-k", "--kustomize"); ok {
			what = f
		}
		switch verb {
		case "exec", "attach", "debug":
			cmd := pkgAfter(s.Args[1:], "--")
			if reads := innerCredReads(c, cmd); len(reads) > 0 {
				return one(ctrSecretRead, "Reads "+capText(strings.Join(reads, ", "))+" inside the pod "+res+where)
			}
			if len(cmd) > 0 {
				return one(cloudChange, "Runs `"+capText(strings.Join(cmd, " "))+"` inside the pod "+res+where)
			}
			return one(cloudChange, "Opens a shell or session inside the pod "+res+where)
		case "port-forward", "proxy":
			return one(cloudChange, "Opens a tunnel into the cluster ("+joinArgs(s.Args)+")"+where)
		case "cp":
			return one(cloudChange, "Copies files into or out of a pod with "+joinArgs(s.Args)+where)
		}
		return one(cloudChange, "Runs "+tool+" "+verb+" on "+capText(what)+where+", changing the cluster")
	}
	return nil
}

func cloudHelm(c *execCtx, s *Segment, hints []string) []cloudOp {
	p := s.positional(0, "-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set", "--set-string", "--set-file",
		"--set-json", "--version", "--repo", "-o", "--output", "--timeout", "--description", "--post-renderer", "--registry-config",
		"--repository-config", "--repository-cache", "--username", "--password", "--ca-file", "--cert-file", "--key-file", "--revision",
		"--max", "-e", "--environment", "-l", "--selector", "--state-values-set", "--state-values-file", "--file")
	if len(p) == 0 {
		return nil
	}
	ns, _ := optValue(s.Args[1:], "-n", "--namespace", "-e", "--environment")
	where := cloudWhere(c, s, hints)
	if ns != "" {
		if prodLike(ns) {
			where = " in the namespace " + ns
		} else {
			where = " in the namespace " + ns + where
		}
	}
	tool := s.Name()
	dry := s.arg("--dry-run") || func() bool { _, ok := optValue(s.Args[1:], "--dry-run"); return ok }()
	switch p[0] {
	case "install", "upgrade", "rollback", "test", "sync", "apply", "deploy":
		if dry {
			return one(cloudRead, "Renders what "+tool+" "+p[0]+" would change (--dry-run)")
		}
		return one(cloudChange, "Deploys or changes the release "+strings.Join(p[1:min(2, len(p))], "")+" with "+tool+" "+p[0]+where)
	case "uninstall", "delete", "del", "un", "destroy":
		if dry {
			return one(cloudRead, "Shows what "+tool+" "+p[0]+" would remove (--dry-run)")
		}
		if prodLike(ns) || strings.Contains(where, "production") || tool == "helmfile" {
			return one(cloudDestroy, "Uninstalls "+strings.Join(p[1:], " ")+where+", removing everything the release deployed")
		}
		return one(cloudChange, "Uninstalls the release "+strings.Join(p[1:], " ")+where)
	case "get":
		if len(p) > 1 && (p[1] == "values" || p[1] == "all" || p[1] == "manifest") {
			return one(cloudReadValues, "Prints the "+p[1]+" of the release "+strings.Join(p[2:], " ")+where+", which often hold passwords and tokens")
		}
		return one(cloudRead, "Inspects a helm release with "+joinArgs(s.Args))
	case "repo":
		if len(p) > 1 && (p[1] == "add" || p[1] == "remove" || p[1] == "rm") {
			return one(cloudConfig, "Changes helm's chart repositories with "+joinArgs(s.Args))
		}
		if len(p) > 1 && p[1] == "list" {
			return one(cloudRead, "Lists helm's chart repositories")
		}
	case "list", "ls", "status", "history", "hist", "template", "lint", "show", "inspect", "search", "version", "env", "verify", "diff",
		"dependency", "dep", "plugin", "build", "deps", "repos", "write-values", "fetch":
		if (p[0] == "dependency" || p[0] == "dep") && len(p) > 1 && p[1] != "list" {
			return nil // pkg rules
		}
		if p[0] == "plugin" && len(p) > 1 && p[1] != "list" {
			return nil
		}
		return one(cloudRead, "Inspects charts or releases with "+joinArgs(s.Args)+" (no changes)")
	}
	return nil
}

// awsReadPrefixes are AWS CLI operations that only read.
var awsReadPrefixes = []string{"describe-", "list-", "get-", "head-", "lookup-", "search-", "batch-get-", "filter-", "select-", "preview-",
	"estimate-", "validate-", "simulate-", "test-", "detect-", "check-", "query", "scan", "wait", "tail", "ls"}

// awsSecretOps print credentials or secrets even though they are named get-*.
var awsSecretOps = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"get-login-password": true, "get-session-token": true, "get-authorization-token": true,
		"get-federation-token": true, "get-credentials-for-identity": true, "get-password-data": true, "get-role-credentials": true,
		"get-secret-value": true, "get-parameter": true, "get-parameters": true, "get-parameters-by-path": true, "assume-role": true,
		"assume-role-with-web-identity": true, "assume-role-with-saml": true, "get-open-id-token": true, "get-login": true,
		"get-cluster-credentials": true, "get-data-key": true, "decrypt": true, "generate-data-key": true, "export-credentials": true}
}}

// awsDestroy are AWS operations that tear down environments (fin) or stored data (data).
var awsDestroy = table[map[string]cloudKind]{build: func() map[string]cloudKind {
	return map[string]cloudKind{"ec2 terminate-instances": cloudDestroy, "cloudformation delete-stack": cloudDestroy,
		"eks delete-cluster": cloudDestroy, "ecs delete-cluster": cloudDestroy, "organizations close-account": cloudDestroy,
		"organizations delete-organization": cloudDestroy, "route53 delete-hosted-zone": cloudDestroy, "elasticbeanstalk terminate-environment": cloudDestroy,
		"rds delete-db-instance": cloudDestroyData, "rds delete-db-cluster": cloudDestroyData, "rds delete-db-snapshot": cloudDestroyData,
		"rds delete-db-cluster-snapshot": cloudDestroyData, "dynamodb delete-table": cloudDestroyData, "dynamodb delete-backup": cloudDestroyData,
		"s3api delete-bucket": cloudDestroyData, "s3api delete-objects": cloudDestroyData, "efs delete-file-system": cloudDestroyData,
		"redshift delete-cluster": cloudDestroyData, "elasticache delete-cache-cluster": cloudDestroyData, "elasticache delete-replication-group": cloudDestroyData,
		"docdb delete-db-cluster": cloudDestroyData, "neptune delete-db-cluster": cloudDestroyData, "opensearch delete-domain": cloudDestroyData,
		"es delete-elasticsearch-domain": cloudDestroyData, "ec2 delete-volume": cloudDestroyData, "ec2 delete-snapshot": cloudDestroyData,
		"backup delete-backup-vault": cloudDestroyData, "backup delete-recovery-point": cloudDestroyData, "logs delete-log-group": cloudDestroyData,
		"kms schedule-key-deletion": cloudDestroyData, "ecr delete-repository": cloudDestroyData, "glacier delete-vault": cloudDestroyData,
		"secretsmanager delete-secret": cloudDestroyData, "timestream-write delete-database": cloudDestroyData, "kinesis delete-stream": cloudDestroyData}
}}

func cloudAWS(c *execCtx, s *Segment, hints []string) []cloudOp {
	p := s.positional(0, "--region", "--profile", "--output", "--endpoint-url", "--query", "--cli-read-timeout", "--cli-connect-timeout",
		"--color", "--ca-bundle", "--cli-binary-format", "--bucket", "--key", "--instance-ids", "--function-name", "--stack-name",
		"--table-name", "--cluster", "--service", "--db-instance-identifier", "--role-name", "--policy-arn", "--exclude", "--include",
		"--acl", "--storage-class", "--sse", "--content-type", "--cache-control", "--expires-in", "--name", "--secret-id", "--payload",
		"--cli-input-json", "--body", "--template-file", "--parameter-overrides", "--capabilities")
	if len(p) == 0 {
		return nil
	}
	svc := p[0]
	op := ""
	if len(p) > 1 {
		op = p[1]
	}
	where := cloudWhere(c, s, hints)
	if svc == "s3" {
		var args []string
		if len(p) > 2 {
			args = p[2:]
		}
		switch op {
		case "ls":
			return one(cloudRead, "Lists S3 objects with "+joinArgs(s.Args))
		case "cp", "mv", "sync":
			if len(args) >= 2 && strings.HasPrefix(args[len(args)-1], "s3://") {
				extra := ""
				if s.arg("--delete") {
					extra = ", deleting remote objects that are not in the source"
				}
				return one(cloudChange, "Uploads "+args[0]+" to "+args[len(args)-1]+" with aws s3 "+op+extra+where)
			}
			if op == "mv" && len(args) >= 1 && strings.HasPrefix(args[0], "s3://") {
				return one(cloudChange, "Moves objects out of "+args[0]+", deleting them from S3"+where)
			}
			if len(args) >= 2 {
				return one(cloudRead, "Downloads "+args[0]+" to "+args[len(args)-1])
			}
		case "rm":
			if s.arg("--recursive") {
				return one(cloudDestroyData, "Deletes every object under "+strings.Join(args, " ")+" with aws s3 rm --recursive"+where)
			}
			return one(cloudChange, "Deletes "+strings.Join(args, " ")+" from S3"+where)
		case "rb":
			if s.arg("--force") {
				return one(cloudDestroyData, "Deletes the bucket "+strings.Join(args, " ")+" and every object in it"+where)
			}
			return one(cloudChange, "Deletes the empty bucket "+strings.Join(args, " ")+where)
		case "mb", "website":
			return one(cloudChange, "Creates or changes an S3 bucket with "+joinArgs(s.Args)+where)
		case "presign":
			return one(cloudChange, "Creates a link that lets anyone holding it download "+strings.Join(args, " "))
		}
		return nil
	}
	switch {
	case svc == "configure":
		switch op {
		case "set", "import", "sso", "add-model":
			return one(cloudConfig, "Changes the AWS CLI configuration with "+joinArgs(s.Args))
		case "list", "list-profiles", "":
			return one(cloudRead, "Shows the AWS CLI configuration")
		case "get":
			return nil // credential rules judge secret keys
		case "export-credentials":
			return nil
		}
		return nil
	case op == "" || svc == "help" || op == "help" || svc == "--version":
		return nil
	case svc == "sso" && (op == "login" || op == "logout"):
		return one(cloudConfig, "Signs in or out of AWS SSO, changing the credentials later aws commands use")
	case svc == "sts" && op == "get-caller-identity":
		return one(cloudRead, "Shows which AWS identity the CLI uses")
	case awsSecretOps.get()[op]:
		if svc == "secretsmanager" || svc == "ssm" {
			return nil // credential rules
		}
		return one(cloudReadValues, "Prints AWS credentials or secrets with aws "+svc+" "+op)
	}
	if k, ok := awsDestroy.get()[svc+" "+op]; ok {
		return one(k, "Runs aws "+svc+" "+op+", permanently deleting "+strings.TrimPrefix(strings.TrimPrefix(op, "delete-"), "terminate-")+where)
	}
	for _, r := range awsReadPrefixes {
		if strings.HasPrefix(op, r) {
			return one(cloudRead, "Inspects AWS resources with aws "+svc+" "+op)
		}
	}
	if strings.HasPrefix(op, "start-session") || svc == "ssm" && op == "send-command" || svc == "ec2-instance-connect" {
		return one(cloudChange, "Runs commands on AWS machines with aws "+svc+" "+op+where)
	}
	if svc == "iam" {
		return one(cloudChange, "Changes AWS permissions with aws iam "+op+where)
	}
	return one(cloudChange, "Changes AWS resources with aws "+svc+" "+op+where)
}

// gcloudDestroy are gcloud groups whose delete tears down an environment (fin) or data.
var gcloudDestroy = table[map[string]cloudKind]{build: func() map[string]cloudKind {
	return map[string]cloudKind{"projects": cloudDestroy, "compute instances": cloudDestroy, "container clusters": cloudDestroy,
		"run services": cloudDestroy, "app services": cloudDestroy, "sql instances": cloudDestroyData, "sql databases": cloudDestroyData,
		"spanner instances": cloudDestroyData, "spanner databases": cloudDestroyData, "bigtable instances": cloudDestroyData,
		"redis instances": cloudDestroyData, "filestore instances": cloudDestroyData, "storage buckets": cloudDestroyData,
		"firestore databases": cloudDestroyData, "compute disks": cloudDestroyData, "compute snapshots": cloudDestroyData,
		"alloydb clusters": cloudDestroyData, "alloydb instances": cloudDestroyData}
}}

var gcloudReadVerbs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"list": true, "describe": true, "get-iam-policy": true, "read": true, "tail": true, "info": true,
		"version": true, "get-value": true, "lookup": true, "search": true, "list-grantable-roles": true, "get-server-config": true,
		"get-ancestors": true, "get-ancestors-iam-policy": true, "ls": true, "cat": true, "du": true, "stat": true, "hash": true, "head": true, "show": true}
}}

var gcloudChangeVerbs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"create": true, "update": true, "delete": true, "deploy": true, "set-iam-policy": true,
		"add-iam-policy-binding": true, "remove-iam-policy-binding": true, "start": true, "stop": true, "reset": true, "resize": true,
		"restart": true, "rollback": true, "submit": true, "import": true, "export": true, "patch": true, "enable": true, "disable": true,
		"call": true, "publish": true, "ssh": true, "scp": true, "attach-disk": true, "detach-disk": true, "promote-replica": true,
		"failover": true, "clone": true, "move": true, "upload": true, "apply": true, "cancel": true, "execute": true, "undelete": true,
		"replace": true, "restore": true, "promote": true, "suspend": true, "resume": true, "pull": true, "rm": true, "cp": true, "mv": true,
		"rsync": true, "mb": true, "rb": true, "setmeta": true, "set": true, "add": true, "remove": true, "run": true, "insert": true,
		"load": true, "mk": true, "truncate": true, "acl": true, "iam": true, "lifecycle": true, "versioning": true, "web": true, "retention": true}
}}

func cloudGCP(c *execCtx, s *Segment, hints []string) []cloudOp {
	name := s.Name()
	p := s.positional(0, "--project", "--account", "--configuration", "--format", "--region", "--zone", "--verbosity",
		"--impersonate-service-account", "--billing-project", "--flags-file", "--filter", "--limit", "--sort-by", "--page-size",
		"--image", "--machine-type", "-o", "-h", "-u", "-p", "--project_id", "--dataset_id", "--location", "-n", "--max_rows")
	if len(p) == 0 {
		return nil
	}
	where := cloudWhere(c, s, hints)
	if name == "bq" {
		switch p[0] {
		case "query":
			return nil // the db rules read the SQL
		case "rm":
			if s.hasFlag("r", "--recursive") {
				return one(cloudDestroyData, "Deletes the BigQuery dataset "+strings.Join(p[1:], " ")+" and every table in it"+where)
			}
			return one(cloudChange, "Deletes the BigQuery table "+strings.Join(p[1:], " ")+where)
		case "ls", "show", "head", "version", "help", "wait", "info":
			return one(cloudRead, "Inspects BigQuery with "+joinArgs(s.Args))
		}
		return one(cloudChange, "Changes BigQuery data with "+joinArgs(s.Args)+where)
	}
	if name == "gsutil" || name == "gcloud" && p[0] == "storage" {
		words := p
		if name == "gcloud" {
			words = p[1:]
		}
		if len(words) == 0 {
			return nil
		}
		verb, args := words[0], words[1:]
		switch verb {
		case "ls", "cat", "du", "stat", "hash", "version", "help", "objects", "buckets":
			if (verb == "objects" || verb == "buckets") && len(args) > 0 {
				if args[0] == "delete" && verb == "buckets" {
					return one(cloudDestroyData, "Deletes the bucket "+strings.Join(args[1:], " ")+where)
				}
				if args[0] != "list" && args[0] != "describe" {
					return one(cloudChange, "Changes Cloud Storage with "+joinArgs(s.Args)+where)
				}
			}
			return one(cloudRead, "Inspects Cloud Storage with "+joinArgs(s.Args))
		case "cp", "mv", "rsync":
			if len(args) >= 2 && strings.HasPrefix(args[len(args)-1], "gs://") {
				return one(cloudChange, "Uploads "+args[0]+" to "+args[len(args)-1]+where)
			}
			if verb == "mv" {
				return one(cloudChange, "Moves objects out of Cloud Storage, deleting them there"+where)
			}
			return one(cloudRead, "Downloads from Cloud Storage with "+joinArgs(s.Args))
		case "rm":
			if s.hasFlag("rRa", "--recursive", "--all-versions") {
				return one(cloudDestroyData, "Deletes every object under "+strings.Join(args, " ")+" in Cloud Storage"+where)
			}
			return one(cloudChange, "Deletes "+strings.Join(args, " ")+" from Cloud Storage"+where)
		case "rb":
			if s.hasFlag("f", "--force") {
				return one(cloudDestroyData, "Deletes the bucket "+strings.Join(args, " ")+" and its objects"+where)
			}
			return one(cloudChange, "Deletes the bucket "+strings.Join(args, " ")+where)
		}
		return one(cloudChange, "Changes Cloud Storage with "+joinArgs(s.Args)+where)
	}
	// gcloud GROUP… VERB NAME
	// The first word is a command group (run, compute, sql, …), even when it looks like a verb.
	vi := -1
	for i, w := range p {
		if i == 0 && len(p) > 1 {
			continue
		}
		if gcloudReadVerbs.get()[w] || gcloudChangeVerbs.get()[w] || w == "get-credentials" || w == "print-access-token" || w == "activate" || w == "get" {
			vi = i
			break
		}
	}
	if vi < 0 {
		return nil
	}
	groups := strings.Join(p[:vi], " ")
	verb := p[vi]
	switch {
	case p[0] == "auth":
		if verb == "list" {
			return one(cloudRead, "Lists gcloud accounts")
		}
		return nil
	case p[0] == "secrets" && !gcloudReadVerbs.get()[verb]:
		if strings.Contains(strings.Join(p, " "), "access") {
			return nil
		}
	case p[0] == "config":
		if verb == "list" || verb == "get-value" || verb == "get" || groups == "config configurations" && verb == "list" {
			return one(cloudRead, "Shows the gcloud configuration")
		}
		return one(cloudConfig, "Changes the gcloud configuration with "+joinArgs(s.Args)+", so later commands act on another project or account")
	case verb == "get-credentials":
		return one(cloudConfig, "Fetches cluster credentials into the kubeconfig with "+joinArgs(s.Args)+", so later kubectl commands act on that cluster")
	}
	if gcloudReadVerbs.get()[verb] {
		return one(cloudRead, "Inspects Google Cloud resources with gcloud "+groups+" "+verb)
	}
	if verb == "delete" {
		for g, k := range gcloudDestroy.get() {
			if groups == g || strings.HasSuffix(groups, " "+g) {
				return one(k, "Deletes "+strings.Join(p[vi+1:], " ")+" ("+groups+") with gcloud"+where)
			}
		}
	}
	if gcloudChangeVerbs.get()[verb] {
		if verb == "ssh" || verb == "scp" {
			return one(cloudChange, "Opens a session on a cloud machine with gcloud "+groups+" "+verb+where)
		}
		return one(cloudChange, "Changes Google Cloud resources with gcloud "+groups+" "+verb+" "+strings.Join(p[vi+1:], " ")+where)
	}
	return nil
}

var azDestroy = table[map[string]cloudKind]{build: func() map[string]cloudKind {
	return map[string]cloudKind{"group": cloudDestroy, "vm": cloudDestroy, "vmss": cloudDestroy, "aks": cloudDestroy, "webapp": cloudDestroy,
		"functionapp": cloudDestroy, "containerapp": cloudDestroy, "sql db": cloudDestroyData, "sql server": cloudDestroyData, "sql mi": cloudDestroyData,
		"postgres server": cloudDestroyData, "postgres flexible-server": cloudDestroyData, "mysql server": cloudDestroyData, "mysql flexible-server": cloudDestroyData,
		"cosmosdb": cloudDestroyData, "cosmosdb database": cloudDestroyData, "storage account": cloudDestroyData, "storage container": cloudDestroyData,
		"keyvault": cloudDestroyData, "redis": cloudDestroyData, "disk": cloudDestroyData, "snapshot": cloudDestroyData,
		"compute droplet": cloudDestroy, "kubernetes cluster": cloudDestroy, "databases": cloudDestroyData, "compute volume": cloudDestroyData,
		"apps": cloudDestroy, "registry": cloudDestroyData, "databases db": cloudDestroyData, "database": cloudDestroyData}
}}

var azReadVerbs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"list": true, "show": true, "query": true, "exists": true, "wait": true, "version": true, "get": true,
		"ls": true, "logs": true, "what-if": true, "validate": true, "tail": true, "list-locations": true, "check-name": true}
}}

var azChangeVerbs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"create": true, "update": true, "delete": true, "set": true, "start": true, "stop": true, "restart": true,
		"deallocate": true, "deploy": true, "assign": true, "add": true, "remove": true, "import": true, "scale": true, "swap": true, "upload": true,
		"upload-batch": true, "delete-batch": true, "purge": true, "reset": true, "invoke": true, "run-command": true, "apply": true, "generalize": true,
		"redeploy": true, "reimage": true, "resize": true, "rotate": true, "renew": true, "regenerate-key": true, "restore": true, "failover": true,
		"move": true, "lock": true, "unlock": true, "enable": true, "disable": true, "approve": true, "reject": true, "grant": true, "revoke": true,
		"power-off": true, "power-on": true, "reboot": true, "rebuild": true, "snapshot": true, "attach": true, "detach": true, "tag": true,
		"untag": true, "sync": true, "create-deployment": true, "up": true, "upgrade": true, "recover": true, "ssh": true, "exec": true, "connect": true}
}}

func cloudAzDO(c *execCtx, s *Segment, hints []string) []cloudOp {
	var words []string
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-") {
			break
		}
		words = append(words, a)
	}
	if len(words) == 0 {
		return nil
	}
	name := s.Name()
	where := cloudWhere(c, s, hints)
	vi := -1
	for i, w := range words {
		if i == 0 && len(words) > 1 {
			continue // a command group
		}
		if azReadVerbs.get()[w] || azChangeVerbs.get()[w] || strings.HasPrefix(w, "list-") || strings.HasPrefix(w, "show-") || strings.HasPrefix(w, "get-") {
			vi = i
			break
		}
	}
	if vi < 0 {
		if len(words) < 2 || name == "doctl" {
			return nil // az login, az version, …
		}
		vi = len(words) - 1 // an unknown verb: judged as a change below
	}
	groups := strings.Join(words[:vi], " ")
	verb := words[vi]
	switch {
	case name == "az" && groups == "account" && (verb == "set" || verb == "clear"), name == "az" && verb == "get-credentials",
		name == "az" && groups == "config" && verb == "set", name == "doctl" && (groups == "auth" || words[0] == "kubernetes" && strings.Contains(strings.Join(words, " "), "kubeconfig save")):
		return one(cloudConfig, "Switches the account or cluster later commands use with "+joinArgs(s.Args))
	case verb == "get-access-token" || strings.HasPrefix(verb, "list-keys") || strings.HasPrefix(verb, "show-connection-string") || verb == "list-credentials" || verb == "get-connection-string":
		return one(cloudReadValues, "Prints credentials or connection strings with "+joinArgs(s.Args))
	case name == "az" && groups == "rest":
		if m, ok := optValue(s.Args[1:], "--method", "-m"); ok && strings.ToLower(m) != "get" {
			return one(cloudChange, "Sends a "+strings.ToUpper(m)+" request to the Azure API"+where)
		}
		return one(cloudRead, "Reads from the Azure API")
	}
	if azReadVerbs.get()[verb] || strings.HasPrefix(verb, "list-") || strings.HasPrefix(verb, "show-") || strings.HasPrefix(verb, "get-") {
		return one(cloudRead, "Inspects cloud resources with "+name+" "+groups+" "+verb)
	}
	if verb == "delete" || verb == "purge" || verb == "delete-batch" {
		k, ok := azDestroy.get()[groups]
		if !ok && name == "doctl" {
			k, ok = azDestroy.get()[strings.Join(words[:min(2, vi)], " ")]
		}
		if ok {
			return one(k, "Deletes "+strings.Join(words[vi+1:], " ")+" ("+groups+") with "+name+where)
		}
		if verb == "delete-batch" || groups == "storage blob" && verb == "delete" && s.arg("--delete-snapshots") {
			return one(cloudDestroyData, "Deletes stored data with "+joinArgs(s.Args)+where)
		}
	}
	return one(cloudChange, "Changes cloud resources with "+name+" "+groups+" "+verb+" "+strings.Join(words[vi+1:], " ")+where)
}

func cloudPaaS(c *execCtx, s *Segment, hints []string) []cloudOp {
	name := s.Name()
	p := s.positional(0, "-a", "--app", "-r", "--remote", "-c", "--config", "--region", "--image", "--org", "-o", "--token", "-t",
		"--scope", "-S", "--team", "-A", "--local-config", "-Q", "--global-config", "--cwd", "--build-env", "-b", "--env", "-e",
		"--meta", "-m", "--target", "--regions", "--dir", "-d", "--site", "-s", "--alias", "--message", "--only", "--except",
		"--project", "-P", "--account", "--app-id", "--functions", "--auth", "--filter", "--name", "--db-url", "--workdir", "--password", "-p", "--command", "--file")
	sub := ""
	if len(p) > 0 {
		sub = p[0]
	}
	sub2 := ""
	if len(p) > 1 {
		sub2 = p[1]
	}
	where := cloudWhere(c, s, hints)
	if app, ok := optValue(s.Args[1:], "-a", "--app"); ok && where == "" {
		where = " on the app " + app
	}
	switch name {
	case "heroku":
		switch sub {
		case "apps:destroy", "apps:delete", "destroy":
			return one(cloudDestroy, "Destroys the Heroku app"+where+" and everything attached to it")
		case "pg:reset", "pg:backups:restore", "pg:copy", "addons:destroy", "addons:remove", "pg:kill":
			return one(cloudDestroyData, "Runs heroku "+sub+where+", replacing or wiping a database's data")
		case "config", "config:get", "pg:credentials", "pg:credentials:url", "auth:token", "redis:credentials":
			return one(cloudReadValues, "Prints the app's secrets with heroku "+sub+where)
		case "pg:psql", "psql", "login", "logout", "local", "git:remote", "git:clone", "help", "autocomplete", "update", "plugins":
			return nil
		case "apps", "apps:info", "info", "logs", "ps", "releases", "releases:info", "status", "domains", "addons", "addons:info", "pg:info",
			"pg", "pg:ps", "pg:diagnose", "pg:backups", "regions", "stack", "access", "features", "labs", "buildpacks", "whoami", "auth:whoami",
			"version", "spaces", "teams", "members", "drains", "certs", "pipelines", "ps:type", "pg:settings", "redis:info", "webhooks":
			return one(cloudRead, "Inspects the Heroku app with "+joinArgs(s.Args))
		case "run", "run:detached":
			return one(cloudChange, "Runs `"+capText(strings.Join(p[1:], " "))+"` on a one-off dyno of the app"+where)
		case "":
			return nil
		}
		return one(cloudChange, "Changes the Heroku app with heroku "+sub+where)
	case "fly", "flyctl":
		switch {
		case sub == "destroy" || (sub == "apps" || sub == "app") && (sub2 == "destroy" || sub2 == "delete" || sub2 == "remove"):
			return one(cloudDestroy, "Destroys the Fly app "+strings.Join(p[min(2, len(p)):], " ")+where)
		case (sub == "volumes" || sub == "volume" || sub == "vol") && (sub2 == "destroy" || sub2 == "delete" || sub2 == "rm"),
			(sub == "postgres" || sub == "pg" || sub == "mpg") && (sub2 == "destroy" || sub2 == "delete"):
			return one(cloudDestroyData, "Deletes a Fly "+sub+" and its data with "+joinArgs(s.Args)+where)
		case sub == "secrets" && (sub2 == "list" || sub2 == "ls"), sub == "status", sub == "logs", sub == "info", sub == "version",
			sub == "releases", sub == "regions", sub == "platform", sub == "doctor", sub == "dashboard", sub == "checks", sub == "ping",
			sub == "orgs" || sub == "apps" || sub == "volumes" || sub == "machine" || sub == "machines" || sub == "ips" || sub == "config" || sub == "auth" || sub == "image" && sub2 == "show":
			if sub2 == "" || sub2 == "list" || sub2 == "ls" || sub2 == "show" || sub2 == "status" || sub2 == "whoami" || sub2 == "env" || sub2 == "validate" || sub == "status" || sub == "logs" || sub == "info" || sub == "version" || sub == "releases" || sub == "platform" || sub == "doctor" || sub == "dashboard" || sub == "ping" {
				return one(cloudRead, "Inspects the Fly app with "+joinArgs(s.Args))
			}
		case sub == "", sub == "auth", sub == "postgres" && sub2 == "connect", sub == "pg" && sub2 == "connect":
			return nil
		}
		if sub == "deploy" || sub == "launch" {
			return one(cloudChange, "Deploys the app to Fly.io with fly "+sub+where)
		}
		return one(cloudChange, "Changes the Fly app with "+joinArgs(s.Args)+where)
	case "vercel":
		prod := s.arg("--prod", "--production", "--target=production") || func() bool { t, ok := optValue(s.Args[1:], "--target"); return ok && t == "production" }()
		switch sub {
		case "", "deploy", "redeploy":
			if prod || sub == "redeploy" {
				return one(cloudChange, "Deploys the project to production on Vercel")
			}
			return one(cloudPreview, "Creates a Vercel preview deployment of the project, publishing the code at a public URL")
		case "remove", "rm":
			return one(cloudDestroy, "Removes the Vercel deployment or project "+strings.Join(p[1:], " "))
		case "ls", "list", "inspect", "logs", "whoami", "--version", "help", "teams", "switch", "login", "logout", "link", "dev", "build", "pull", "open", "bisect", "init", "httpstat":
			if sub == "pull" {
				return one(cloudReadValues, "Downloads the project's settings and environment variables (secrets) from Vercel")
			}
			if sub == "dev" || sub == "build" || sub == "login" || sub == "logout" || sub == "link" || sub == "init" {
				return nil
			}
			return one(cloudRead, "Inspects the Vercel project with "+joinArgs(s.Args))
		case "env":
			if sub2 == "ls" || sub2 == "list" {
				return one(cloudRead, "Lists the project's environment variable names on Vercel")
			}
			if sub2 == "pull" {
				return one(cloudReadValues, "Downloads the project's environment variables (secrets) from Vercel into a local file")
			}
		case "project", "projects":
			if sub2 == "rm" || sub2 == "remove" {
				return one(cloudDestroy, "Deletes the Vercel project "+strings.Join(p[2:], " ")+" with all its deployments")
			}
			if sub2 == "" || sub2 == "ls" || sub2 == "list" || sub2 == "inspect" {
				return one(cloudRead, "Inspects Vercel projects")
			}
		case "domains", "dns", "alias", "aliases", "certs", "secrets", "git", "integration", "promote", "rollback", "target", "blob", "microfrontends", "redirects":
			if sub2 == "" || sub2 == "ls" || sub2 == "list" || sub2 == "inspect" {
				return one(cloudRead, "Inspects the Vercel project with "+joinArgs(s.Args))
			}
		}
		return one(cloudChange, "Changes the Vercel project with "+joinArgs(s.Args))
	case "netlify":
		switch sub {
		case "deploy":
			if s.arg("--prod", "-p", "--prod-if-unlocked", "--production") {
				return one(cloudChange, "Deploys the site to production on Netlify")
			}
			return one(cloudPreview, "Creates a Netlify draft deployment of the site at a public URL")
		case "sites:delete":
			return one(cloudDestroy, "Deletes the Netlify site "+strings.Join(p[1:], " "))
		case "status", "sites:list", "env:list", "logs", "logs:deploy", "logs:function", "open", "watch", "functions:list", "--version", "help", "api":
			if sub == "api" && len(p) > 1 && (strings.HasPrefix(p[1], "create") || strings.HasPrefix(p[1], "update") || strings.HasPrefix(p[1], "delete")) {
				return one(cloudChange, "Calls the Netlify API with "+joinArgs(s.Args))
			}
			return one(cloudRead, "Inspects the Netlify site with "+joinArgs(s.Args))
		case "env:get":
			return one(cloudReadValues, "Prints a Netlify environment variable, which may be a secret")
		case "dev", "build", "login", "logout", "link", "unlink", "init", "functions:serve", "functions:build", "serve", "":
			return nil
		}
		return one(cloudChange, "Changes the Netlify site with "+joinArgs(s.Args))
	case "firebase":
		switch {
		case sub == "deploy":
			return one(cloudChange, "Deploys to the Firebase project with "+joinArgs(s.Args)+where)
		case sub == "hosting:channel:deploy":
			return one(cloudPreview, "Deploys a Firebase Hosting preview channel at a public URL")
		case sub == "database:remove" || sub == "firestore:delete" || sub == "projects:delete" || sub == "firestore:databases:delete" || sub == "storage:delete":
			return one(cloudDestroyData, "Deletes Firebase data with "+joinArgs(s.Args)+where)
		case sub == "functions:config:get" || sub == "functions:secrets:access" || sub == "apps:sdkconfig":
			return one(cloudReadValues, "Prints Firebase configuration or secrets with "+joinArgs(s.Args))
		case sub == "use":
			if len(p) > 1 {
				return one(cloudConfig, "Switches the Firebase project later commands act on")
			}
			return one(cloudRead, "Shows the active Firebase project")
		case strings.HasSuffix(sub, ":list") || strings.HasSuffix(sub, ":get") || strings.HasSuffix(sub, ":log") || strings.HasSuffix(sub, ":indexes") ||
			sub == "--version" || sub == "help" || sub == "open" || sub == "target" || strings.HasSuffix(sub, ":describe"):
			return one(cloudRead, "Inspects the Firebase project with "+joinArgs(s.Args))
		case sub == "" || sub == "login" || sub == "logout" || sub == "init" || strings.HasPrefix(sub, "emulators") || sub == "serve" || strings.HasPrefix(sub, "login:"):
			return nil
		}
		return one(cloudChange, "Changes the Firebase project with "+joinArgs(s.Args)+where)
	case "supabase":
		switch sub {
		case "db":
			switch sub2 {
			case "reset", "execute", "query":
				return nil // db rules
			case "push":
				return nil // db rules: migrations to the linked project
			case "diff", "dump", "lint", "pull":
				return one(cloudRead, "Inspects the database schema with "+joinArgs(s.Args))
			}
		case "projects":
			if sub2 == "delete" {
				return one(cloudDestroy, "Deletes the Supabase project "+strings.Join(p[2:], " "))
			}
			if sub2 == "list" || sub2 == "api-keys" {
				if sub2 == "api-keys" {
					return one(cloudReadValues, "Prints the Supabase project's API keys")
				}
				return one(cloudRead, "Lists Supabase projects")
			}
		case "storage":
			if sub2 == "rm" {
				return one(cloudDestroyData, "Deletes files from Supabase Storage with "+joinArgs(s.Args))
			}
			if sub2 == "ls" {
				return one(cloudRead, "Lists Supabase Storage objects")
			}
		case "link":
			return one(cloudConfig, "Links the project to a remote Supabase project, so later db and deploy commands act on it")
		case "migration":
			if sub2 == "list" {
				return one(cloudRead, "Lists migrations")
			}
			return nil
		case "start", "stop", "status", "gen", "init", "login", "logout", "help", "--version", "", "test", "services", "inspect":
			if sub == "status" || sub == "inspect" || sub == "services" {
				return one(cloudRead, "Inspects the Supabase setup with "+joinArgs(s.Args))
			}
			return nil
		}
		if sub2 == "list" || sub2 == "ls" {
			return one(cloudRead, "Inspects the Supabase project with "+joinArgs(s.Args))
		}
		return one(cloudChange, "Changes the remote Supabase project with "+joinArgs(s.Args))
	case "wrangler":
		switch sub {
		case "deploy", "publish", "rollback", "triggers", "versions", "deployments", "pages", "queues", "secret", "kv:key", "kv", "r2", "d1", "vectorize", "hyperdrive", "delete":
			if sub == "d1" && (sub2 == "execute" || sub2 == "migrations") {
				return nil // db rules
			}
			if sub2 == "list" || sub2 == "ls" || sub2 == "info" || sub2 == "get" && sub != "kv" || sub2 == "view" || (sub == "versions" || sub == "deployments") && sub2 != "deploy" && sub2 != "upload" || sub == "pages" && sub2 == "project" && len(p) > 2 && p[2] == "list" {
				return one(cloudRead, "Inspects Cloudflare resources with "+joinArgs(s.Args))
			}
			if sub == "delete" || strings.Contains(strings.Join(p, " "), "delete") && (sub == "r2" || sub == "d1" || sub == "kv" && strings.Contains(strings.Join(p, " "), "namespace")) {
				return one(cloudDestroyData, "Deletes Cloudflare resources and their data with "+joinArgs(s.Args))
			}
			return one(cloudChange, "Changes the deployed Cloudflare Worker or its resources with "+joinArgs(s.Args))
		case "whoami", "tail", "--version", "help":
			return one(cloudRead, "Inspects Cloudflare with "+joinArgs(s.Args))
		}
	}
	return nil
}

func cloudMisc(c *execCtx, s *Segment, hints []string) []cloudOp {
	name := s.Name()
	p := s.positional(0, "--stage", "-s", "--region", "-r", "--profile", "--function", "-f", "--path", "-p", "--data", "-d", "--app",
		"--context", "-c", "--stack-name", "--template-file", "-t", "-i", "--inventory", "-l", "--limit", "-e", "--extra-vars", "-u",
		"--user", "--tags", "--skip-tags", "-m", "--module-name", "-a", "--args", "--api-key", "--project-name", "--stripe-account",
		"--stripe-version", "--forward-to", "--events", "--expand", "--limit", "--starting-after", "--ending-before", "--charge",
		"--amount", "--currency", "--customer", "--name", "--image", "--nodes", "--kubeconfig", "--config", "--cluster", "--profile",
		"--vault-password-file", "--become-user", "-k", "-K", "--output", "-o", "--server", "--auth-token", "--revision", "--env", "--environment-name")
	sub := ""
	if len(p) > 0 {
		sub = p[0]
	}
	sub2 := ""
	if len(p) > 1 {
		sub2 = p[1]
	}
	where := cloudWhere(c, s, hints)
	switch name {
	case "serverless", "sls":
		switch sub {
		case "deploy":
			return one(cloudChange, "Deploys the service with "+joinArgs(s.Args)+where)
		case "remove":
			return one(cloudDestroy, "Removes the deployed service and its resources with "+joinArgs(s.Args)+where)
		case "invoke", "rollback":
			if sub2 == "local" {
				return nil
			}
			return one(cloudChange, "Runs serverless "+sub+" against the deployed service"+where)
		case "info", "print", "logs", "metrics", "--version", "help":
			return one(cloudRead, "Inspects the deployed service with "+joinArgs(s.Args))
		}
	case "cdk":
		switch sub {
		case "deploy", "bootstrap", "watch", "import", "migrate", "rollback", "gc", "refactor":
			return one(cloudChange, "Deploys or changes AWS CloudFormation stacks with cdk "+sub+where)
		case "destroy":
			return one(cloudDestroy, "Destroys the app's CloudFormation stacks with cdk destroy"+where)
		case "diff", "ls", "list", "doctor", "context", "docs", "metadata", "notices", "acknowledge", "ack", "--version", "drift":
			return one(cloudRead, "Inspects the CDK app with "+joinArgs(s.Args))
		}
	case "sam":
		switch sub {
		case "deploy", "sync", "package", "publish", "remote", "pipeline":
			if sub == "remote" && sub2 == "invoke" || sub != "remote" {
				return one(cloudChange, "Deploys or invokes the serverless app on AWS with "+joinArgs(s.Args)+where)
			}
		case "delete":
			return one(cloudDestroy, "Deletes the deployed serverless app and its stack with sam delete"+where)
		case "logs", "list", "traces":
			return one(cloudRead, "Inspects the deployed app with "+joinArgs(s.Args))
		}
	case "eb":
		switch sub {
		case "terminate":
			return one(cloudDestroy, "Terminates the Elastic Beanstalk environment"+where)
		case "printenv":
			return one(cloudReadValues, "Prints the environment's variables, which usually hold secrets")
		case "status", "health", "logs", "list", "events", "platform", "appversion", "labs", "--version":
			return one(cloudRead, "Inspects the Elastic Beanstalk app with "+joinArgs(s.Args))
		case "use", "init":
			return one(cloudConfig, "Selects the Elastic Beanstalk environment later commands act on")
		case "":
			return nil
		}
		return one(cloudChange, "Changes the Elastic Beanstalk app with eb "+sub+where)
	case "ansible-playbook", "ansible":
		if s.arg("--check", "-C", "--syntax-check", "--list-hosts", "--list-tasks", "--list-tags", "--version") {
			return one(cloudRead, "Checks an Ansible run without changing the hosts ("+joinArgs(s.Args)+")")
		}
		inv := ""
		if v, ok := optValue(s.Args[1:], "-i", "--inventory"); ok {
			inv = " in the inventory " + v
		}
		if name == "ansible" {
			mod, _ := optValue(s.Args[1:], "-m", "--module-name")
			if mod == "ping" || mod == "setup" || mod == "gather_facts" || mod == "ansible.builtin.ping" {
				return one(cloudRead, "Checks the hosts"+inv+" with the Ansible "+mod+" module")
			}
			if len(p) == 0 {
				return nil
			}
			return one(cloudChange, "Runs Ansible commands on the hosts "+p[0]+inv+where)
		}
		return one(cloudChange, "Runs the Ansible playbook "+strings.Join(p, " ")+" against the hosts"+inv+where)
	case "ansible-vault":
		switch sub {
		case "view", "decrypt":
			return one(cloudReadValues, "Decrypts Ansible vault secrets with ansible-vault "+sub)
		}
		return nil
	case "stripe":
		live := ""
		if s.arg("--live") {
			live = " in live mode"
		}
		switch sub {
		case "listen", "logs", "version", "status", "open", "get", "help", "--version", "completion", "whoami":
			return one(cloudRead, "Inspects the Stripe account with "+joinArgs(s.Args))
		case "login", "logout", "config", "samples", "serve", "plugin", "feedback", "":
			return nil
		case "post", "delete", "trigger", "fixtures":
			return one(cloudChange, "Changes the Stripe account"+live+" with "+joinArgs(s.Args))
		}
		switch sub2 {
		case "list", "retrieve", "search", "upcoming", "upcoming_lines", "list_line_items", "retrieve_upcoming":
			return one(cloudRead, "Reads Stripe "+sub+" with "+joinArgs(s.Args))
		}
		return one(cloudChange, "Runs stripe "+sub+" "+sub2+live+", changing the Stripe account (money, customers or subscriptions)")
	case "argocd":
		if sub == "app" || sub == "appset" || sub == "proj" || sub == "cluster" || sub == "repo" {
			switch sub2 {
			case "list", "get", "diff", "history", "manifests", "logs", "resources", "wait", "":
				return one(cloudRead, "Inspects Argo CD with "+joinArgs(s.Args))
			case "delete":
				return one(cloudDestroy, "Deletes the Argo CD "+sub+" "+strings.Join(p[2:], " ")+", which by default deletes everything it deployed")
			}
			return one(cloudChange, "Runs argocd "+sub+" "+sub2+", changing what is deployed"+where)
		}
	case "skaffold":
		switch sub {
		case "run", "deploy", "dev", "apply", "delete", "debug":
			return one(cloudChange, "Deploys to or removes from the cluster with skaffold "+sub+where)
		case "render", "diagnose", "inspect", "schema", "version", "config", "lint", "fix", "init", "build", "test", "verify":
			return one(cloudRead, "Runs skaffold "+sub+" without deploying")
		}
	case "kind", "minikube", "k3d":
		switch {
		case sub == "delete" || sub == "stop" || sub2 == "delete" || sub2 == "stop":
			return one(ctrRemove, "Deletes or stops a local "+name+" cluster")
		case sub == "create" || sub == "start" || sub2 == "create" || sub2 == "start" || sub == "load" || sub == "image" || sub == "addons" || sub == "tunnel" || sub == "service" || sub == "mount":
			if sub == "mount" || sub == "tunnel" {
				return one(ctrHostAccess, "Exposes the host to the local cluster with "+joinArgs(s.Args))
			}
			return one(ctrRun, "Creates or starts a local "+name+" cluster")
		case sub == "status" || sub == "get" || sub2 == "list" || sub == "ip" || sub == "version" || sub == "logs" || sub == "profile":
			return one(cloudRead, "Inspects the local cluster with "+joinArgs(s.Args))
		}
	}
	return nil
}

// ---- containers ----

// ctrValueOpts are the options of docker/podman run, create, exec and compose run/exec that
// take a value.
var ctrValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-v": true, "--volume": true, "--mount": true, "-e": true, "--env": true, "--env-file": true, "-p": true,
		"--publish": true, "--name": true, "-w": true, "--workdir": true, "-u": true, "--user": true, "--network": true, "--net": true,
		"--network-alias": true, "--entrypoint": true, "-l": true, "--label": true, "--label-file": true, "--cap-add": true, "--cap-drop": true,
		"--security-opt": true, "--device": true, "--device-cgroup-rule": true, "--pid": true, "--ipc": true, "--uts": true, "--userns": true,
		"--cgroupns": true, "--cgroup-parent": true, "-h": true, "--hostname": true, "--add-host": true, "--dns": true, "--dns-search": true,
		"--dns-option": true, "--domainname": true, "--memory": true, "-m": true, "--memory-swap": true, "--memory-reservation": true,
		"--cpus": true, "--cpu-shares": true, "-c": true, "--cpuset-cpus": true, "--cpuset-mems": true, "--cpu-period": true, "--cpu-quota": true,
		"--platform": true, "--restart": true, "--health-cmd": true, "--health-interval": true, "--health-retries": true, "--health-timeout": true,
		"--health-start-period": true, "--log-driver": true, "--log-opt": true, "--tmpfs": true, "--ulimit": true, "--gpus": true, "--runtime": true,
		"--shm-size": true, "--stop-signal": true, "--stop-timeout": true, "--volumes-from": true, "--link": true, "-a": true, "--attach": true,
		"--cidfile": true, "--expose": true, "--group-add": true, "--ip": true, "--ip6": true, "--mac-address": true, "--pull": true,
		"--sysctl": true, "--storage-opt": true, "--isolation": true, "--oom-score-adj": true, "--pids-limit": true, "--annotation": true,
		"--detach-keys": true, "--pod": true, "--secret": true, "--index": true, "--profile": true, "-f": true, "--file": true,
		"--project-name": true, "--env-from-file": true, "--project-directory": true, "--ansi": true, "--progress": true, "--parallel": true,
		"--context": true, "-H": true, "--host": true, "--log-level": true, "--config": true, "--connection": true, "--url": true, "--root": true,
		"--runroot": true, "--storage-driver": true, "--timeout": true, "-t": true, "--time": true, "--scale": true, "--rmi": true, "--filter": true}
}}

// ctrParse splits docker arguments into options (with values) and the words after them: the
// first non-option word and everything after it (which belongs to the container's command).
func ctrParse(args []string) (opts [][2]string, first string, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return opts, args[i+1], args[i+2:]
			}
			return opts, "", nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return opts, a, args[i+1:]
		}
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			opts = append(opts, [2]string{k, v})
			continue
		}
		if ctrValueOpts.get()[a] {
			v := ""
			if i+1 < len(args) {
				v = args[i+1]
				i++
			}
			opts = append(opts, [2]string{a, v})
			continue
		}
		if len(a) > 2 && a[1] != '-' && ctrValueOpts.get()[a[:2]] && !isFlagCluster(a[1:]) {
			opts = append(opts, [2]string{a[:2], a[2:]}) // -v/host:/c, -p8080:80
			continue
		}
		if len(a) > 2 && a[1] != '-' {
			for _, ch := range a[1:] {
				opts = append(opts, [2]string{"-" + string(ch), ""})
			}
			continue
		}
		opts = append(opts, [2]string{a, ""})
	}
	return opts, "", nil
}

func ctrOpt(opts [][2]string, names ...string) (string, bool) {
	for _, o := range opts {
		for _, n := range names {
			if o[0] == n {
				return o[1], true
			}
		}
	}
	return "", false
}

func ctrOptAll(opts [][2]string, names ...string) []string {
	var out []string
	for _, o := range opts {
		for _, n := range names {
			if o[0] == n {
				out = append(out, o[1])
			}
		}
	}
	return out
}

// ctrSplit finds the docker subcommand (joined with its management group: "image rm",
// "compose up") and the arguments after it.
func ctrSplit(s *Segment) (tool, sub string, rest []string) {
	name := s.Name()
	args := s.Args[1:]
	if name == "docker-compose" || name == "podman-compose" {
		_, first, r := ctrParse(args)
		return name, "compose " + first, r
	}
	_, first, r := ctrParse(args)
	if first == "" {
		return name, "", nil
	}
	switch first {
	case "container", "image", "volume", "network", "system", "builder", "buildx", "compose", "context", "plugin", "service", "stack",
		"secret", "config", "node", "swarm", "manifest", "trust", "machine", "pod":
		_, second, r2 := ctrParse(r)
		if second == "" {
			return name, first, nil
		}
		sub = first + " " + second
		switch sub {
		case "container run", "container create", "container exec", "container rm", "container ls", "container logs", "container inspect",
			"container stop", "container start", "container restart", "container cp", "container top",
			"container stats", "container port", "container diff", "container attach", "container commit", "container pause", "container unpause",
			"container rename", "container update", "container wait", "container export", "container kill":
			sub = strings.TrimPrefix(sub, "container ")
		case "image rm", "image remove":
			sub = "rmi"
		case "image ls", "image list":
			sub = "images"
		case "image pull":
			sub = "pull"
		}
		return name, sub, r2
	}
	return name, first, r
}

// ctrMount is one host path a container gets.
type ctrMount struct {
	src, dst string
	ro       bool
}

func ctrMounts(opts [][2]string) []ctrMount {
	var out []ctrMount
	for _, v := range ctrOptAll(opts, "-v", "--volume") {
		parts := strings.Split(v, ":")
		if len(parts) < 2 {
			continue // an anonymous volume
		}
		m := ctrMount{src: parts[0], dst: parts[1]}
		if len(parts) > 2 {
			for _, o := range strings.Split(parts[2], ",") {
				if o == "ro" || o == "readonly" {
					m.ro = true
				}
			}
		}
		out = append(out, m)
	}
	for _, v := range ctrOptAll(opts, "--mount") {
		m := ctrMount{}
		bind := false
		for _, kv := range strings.Split(v, ",") {
			k, val, _ := strings.Cut(kv, "=")
			switch k {
			case "type":
				bind = val == "bind"
			case "source", "src":
				m.src = val
			case "target", "dst", "destination":
				m.dst = val
			case "readonly", "ro":
				m.ro = val == "" || val == "true" || val == "1"
			}
		}
		if bind || strings.HasPrefix(m.src, "/") {
			out = append(out, m)
		}
	}
	return out
}

// ctrNamedVolume reports a -v source that is a named volume rather than a host path.
func ctrNamedVolume(src string) bool {
	return src != "" && !strings.ContainsAny(src, "/~$.") && src != "."
}

var dockerSockets = []string{"/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock", "/var/run/podman/podman.sock",
	"/run/containerd/containerd.sock", "/var/run/containerd/containerd.sock", "/var/run/crio/crio.sock"}

// ctrMountExposesCreds reports whether mounting abs gives the container a credential store.
func ctrMountExposesCreds(c *execCtx, abs string) bool {
	if isCredentialPath(c, abs) {
		return true
	}
	for _, p := range credHomePaths() {
		full := c.scope.Home + "/" + p
		if strings.HasPrefix(full, abs+"/") {
			return true
		}
	}
	return false
}

var dangerousCaps = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"ALL": true, "SYS_ADMIN": true, "SYS_MODULE": true, "SYS_PTRACE": true, "SYS_RAWIO": true,
		"DAC_READ_SEARCH": true, "DAC_OVERRIDE": true, "BPF": true, "SYS_BOOT": true, "MKNOD": false, "NET_ADMIN": false}
}}

// containerRunOps judges docker run/create/compose run: what the container may reach on the
// host, and what it runs.
func containerRunOps(c *execCtx, s *Segment, tool, sub string, opts [][2]string, image string, cmd []string) []cloudOp {
	var ops []cloudOp
	var priv, access, secrets []string
	rootMount := ""
	if _, ok := ctrOpt(opts, "--privileged"); ok {
		priv = append(priv, "--privileged")
	}
	for _, ns := range []string{"--pid", "--userns", "--cgroupns"} {
		if v, ok := ctrOpt(opts, ns); ok && v == "host" {
			priv = append(priv, ns+"=host")
		}
	}
	for _, ns := range []string{"--network", "--net", "--ipc", "--uts"} {
		if v, ok := ctrOpt(opts, ns); ok && v == "host" {
			access = append(access, ns+"=host")
		}
	}
	for _, cp := range ctrOptAll(opts, "--cap-add") {
		for _, one := range strings.Split(cp, ",") {
			u := strings.TrimPrefix(strings.ToUpper(one), "CAP_")
			if dangerousCaps.get()[u] {
				priv = append(priv, "--cap-add "+one)
			}
		}
	}
	for _, so := range ctrOptAll(opts, "--security-opt") {
		l := strings.ToLower(strings.ReplaceAll(so, ":", "="))
		if strings.HasSuffix(l, "=unconfined") || l == "label=disable" || l == "no-new-privileges=false" {
			priv = append(priv, "--security-opt "+so)
		}
	}
	for _, d := range ctrOptAll(opts, "--device") {
		src := strings.SplitN(d, ":", 2)[0]
		if strings.HasPrefix(src, "/dev/sd") || strings.HasPrefix(src, "/dev/nvme") || strings.HasPrefix(src, "/dev/disk") || src == "/dev/mem" ||
			src == "/dev/kmem" || strings.HasPrefix(src, "/dev/hd") || strings.HasPrefix(src, "/dev/xvd") || strings.HasPrefix(src, "/dev/vd") {
			priv = append(priv, "--device "+d)
		} else if src != "/dev/fuse" && src != "/dev/kvm" && !strings.HasPrefix(src, "/dev/snd") && !strings.HasPrefix(src, "/dev/dri") && !strings.HasPrefix(src, "nvidia") {
			access = append(access, "--device "+d)
		}
	}
	for _, m := range ctrMounts(opts) {
		if ctrNamedVolume(m.src) {
			continue
		}
		t := c.target(m.src)
		spec := m.src + ":" + m.dst
		for _, sock := range dockerSockets {
			if t.abs == sock || strings.HasSuffix(t.abs, "/.docker/run/docker.sock") || strings.HasSuffix(t.abs, "/.colima/default/docker.sock") {
				priv = append(priv, "-v "+spec+" (the container runtime's socket, which controls the host as root)")
				t.zone = ZoneWorkspace // judged
			}
		}
		if t.zone == ZoneWorkspace && len(priv) > 0 && strings.Contains(priv[len(priv)-1], "socket") {
			continue
		}
		switch {
		case t.abs == "/":
			rootMount = m.dst
			priv = append(priv, "-v "+spec+" (the host's whole filesystem)")
		case t.zone == ZoneVital:
			priv = append(priv, "-v "+spec+" ("+c.where(t)+")")
		case t.zone == ZoneSystem:
			if isCredentialPath(c, t.abs) || !m.ro {
				priv = append(priv, "-v "+spec+" ("+t.abs+", a system location)")
			}
		case t.zone == ZoneHome && ctrMountExposesCreds(c, t.abs):
			secrets = append(secrets, "mounts "+t.abs+" into the container")
		case t.zone == ZoneHome && !m.ro:
			access = append(access, "-v "+spec+" ("+t.abs+", outside the workspace, writable)")
		case t.zone == ZoneUnknown:
			access = append(access, "-v "+spec+" ("+m.src+", whose location cannot be resolved)")
		}
	}
	for _, e := range ctrOptAll(opts, "-e", "--env") {
		k, v, hasV := strings.Cut(e, "=")
		if !hasV && isSecretVar(k) {
			secrets = append(secrets, "passes $"+k)
		} else if hasV && strings.HasPrefix(v, "$") && (isSecretVar(k) || isSecretVar(strings.Trim(v, "${}"))) {
			secrets = append(secrets, "passes "+v)
		}
	}
	for _, f := range ctrOptAll(opts, "--env-file") {
		if t := c.target(f); isCredentialPath(c, t.abs) {
			secrets = append(secrets, "passes the variables in "+f)
		}
	}
	what := "the image " + image
	if image == "" {
		what = "a container"
	}
	if len(cmd) > 0 {
		what += " (`" + capText(strings.Join(cmd, " ")) + "`)"
	}
	// A root shell on the host: chroot into a mounted / or nsenter into PID 1.
	if len(cmd) > 0 {
		c0 := cmd[0]
		if rootMount != "" && c0 == "chroot" && len(cmd) > 1 && strings.TrimSuffix(cmd[1], "/") == strings.TrimSuffix(rootMount, "/") {
			ops = append(ops, cloudOp{ctrEscape, "Mounts the host's / into the container at " + rootMount + " and chroots into it: a root shell on the host (" + capText(strings.Join(cmd, " ")) + ")"})
		}
		if c0 == "nsenter" && len(priv) > 0 && (containsArgExact(cmd, "1") || containsArgExact(cmd, "--target=1") || containsArgExact(cmd, "-t1")) {
			ops = append(ops, cloudOp{ctrEscape, "Enters the host's namespaces from a privileged container with nsenter: a root shell on the host"})
		}
	}
	if len(priv) > 0 {
		ops = append(ops, cloudOp{ctrPrivileged, "Runs " + what + " with " + strings.Join(priv, ", ") + ", which gives it root access to the host"})
	}
	if len(secrets) > 0 {
		ops = append(ops, cloudOp{ctrSecrets, "Runs " + what + " and " + strings.Join(secrets, ", ") + ", handing the user's credentials to the container"})
	}
	if len(access) > 0 && len(priv) == 0 {
		ops = append(ops, cloudOp{ctrHostAccess, "Runs " + what + " with " + strings.Join(access, ", ")})
	}
	if len(priv) == 0 && len(secrets) == 0 && len(access) == 0 {
		verb := "Runs "
		if sub == "create" || sub == "container create" {
			verb = "Creates "
		}
		ops = append(ops, cloudOp{ctrRun, verb + what + " in a container with " + tool + " " + sub + "; it stays isolated from the host"})
	}
	return ops
}

func containsArgExact(args []string, v string) bool {
	for _, a := range args {
		if a == v {
			return true
		}
	}
	return false
}

// containerOps judges docker, podman, nerdctl and compose commands other than builds and
// pushes (the pkg rules judge those).
func containerOps(c *execCtx, s *Segment) []cloudOp {
	switch pkgNorm(s.Name()) {
	case "docker", "docker-compose", "podman-compose":
	default:
		return nil
	}
	tool, sub, rest := ctrSplit(s)
	if sub == "" {
		return nil
	}
	opts, first, cmd := ctrParse(rest)
	if sub != "run" && sub != "create" && sub != "compose run" && sub != "exec" && sub != "compose exec" {
		// Other subcommands take few valued options; read their flags from the raw words.
		first, cmd = "", nil
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				if first == "" {
					first = a
				} else {
					cmd = append(cmd, a)
				}
			}
		}
	}
	has := func(flags ...string) bool {
		for _, a := range rest {
			if a == "--" {
				return false
			}
			for _, f := range flags {
				if a == f || strings.HasPrefix(a, f+"=") {
					return true
				}
				if len(f) == 2 && f[0] == '-' && len(a) > 2 && a[0] == '-' && a[1] != '-' && isFlagCluster(a[1:]) && strings.IndexByte(a[1:], f[1]) >= 0 {
					return true
				}
			}
		}
		return false
	}
	read := func() []cloudOp { return one(cloudRead, "Inspects containers with "+joinArgs(s.Args)) }
	switch sub {
	case "run", "create", "compose run":
		image := first
		return containerRunOps(c, s, tool, sub, opts, image, cmd)
	case "exec", "compose exec":
		what := first
		if len(cmd) > 0 {
			what = "`" + capText(strings.Join(cmd, " ")) + "` inside " + first
		}
		if has("--privileged") {
			return one(ctrPrivileged, "Runs "+what+" with --privileged")
		}
		if reads := innerCredReads(c, cmd); len(reads) > 0 {
			return one(ctrSecretRead, "Reads "+capText(strings.Join(reads, ", "))+" inside the container "+first+" with "+tool+" "+sub)
		}
		return one(ctrRun, "Runs "+what+" with "+tool+" "+sub)
	case "compose up", "compose start", "compose restart", "compose stop", "compose kill", "compose pause", "compose unpause", "compose create",
		"compose pull", "compose cp", "compose watch", "start", "stop", "restart", "kill", "pause", "unpause", "wait", "attach", "rename", "update",
		"cp", "commit", "tag", "pull", "load", "import", "save", "export", "network create", "network connect", "network disconnect",
		"network rm", "volume create", "context use", "image tag", "image load", "image import", "image save", "pod create", "pod start", "pod stop", "machine start", "machine stop", "machine init":
		if sub == "context use" {
			return one(cloudConfig, "Switches the Docker context, so later docker commands act on another engine")
		}
		return one(ctrRun, "Manages containers with "+joinArgs(s.Args)+" (reversible)")
	case "compose down":
		if has("-v", "--volumes") {
			return one(ctrVolumeDelete, "Stops the compose stack and deletes its volumes with "+joinArgs(s.Args)+", losing the data in them")
		}
		if has("--rmi") {
			return one(ctrRemove, "Stops the compose stack and removes its images")
		}
		return one(ctrRun, "Stops and removes the project's compose containers; volumes are kept")
	case "rm", "compose rm", "pod rm":
		if has("-v", "--volumes") {
			return one(ctrPrune, "Removes containers with "+joinArgs(s.Args)+" together with their anonymous volumes and the data in them")
		}
		if strings.Contains(strings.Join(s.Args, " "), "$(") || s.Dynamic {
			return one(ctrPrune, "Removes containers chosen at run time ("+joinArgs(s.Args)+"), possibly every container on the machine")
		}
		return one(ctrRemove, "Removes the container "+strings.Join(append([]string{first}, cmd...), " ")+"; it can be recreated from its image")
	case "rmi", "image prune", "builder prune", "buildx prune", "network prune":
		if strings.Contains(strings.Join(s.Args, " "), "$(") || s.Dynamic {
			return one(ctrPrune, "Removes images chosen at run time ("+joinArgs(s.Args)+")")
		}
		return one(ctrRemove, "Removes images or build cache with "+joinArgs(s.Args)+"; they can be pulled or rebuilt")
	case "container prune":
		return one(ctrPrune, "Removes every stopped container on the machine, including other projects'")
	case "system prune":
		if has("--volumes") {
			return one(ctrVolumeDelete, "Deletes every unused container, image and volume on the machine with "+joinArgs(s.Args)+", including other projects' data")
		}
		return one(ctrPrune, "Removes every stopped container, unused network and dangling image on the machine with "+joinArgs(s.Args))
	case "volume rm", "volume remove", "volume prune":
		if sub == "volume prune" {
			return one(ctrVolumeDelete, "Deletes every unused volume on the machine and the data in them")
		}
		return one(ctrVolumeDelete, "Deletes the volume "+strings.Join(append([]string{first}, cmd...), " ")+" and the data in it, which cannot be recovered")
	case "ps", "images", "logs", "inspect", "version", "info", "stats", "top", "port", "diff", "history", "events", "search",
		"system df", "system info", "system events", "images ls", "images list", "container ls", "container list", "image inspect",
		"image history", "volume ls", "volume list", "volume inspect", "network ls", "network list", "network inspect", "context ls",
		"context list", "context show", "context inspect", "buildx ls", "buildx inspect", "buildx du", "manifest inspect", "compose ps",
		"compose logs", "compose config", "compose ls", "compose top", "compose images", "compose version", "compose port", "compose events",
		"service ls", "service ps", "service logs", "service inspect", "stack ls", "stack ps", "stack services", "node ls", "plugin ls", "secret ls", "pod ps", "machine list", "--version", "-v", "login", "logout":
		if sub == "login" || sub == "logout" {
			return nil
		}
		return read()
	case "service create", "service update", "service rm", "service scale", "service rollback", "stack deploy", "stack rm", "stack up",
		"swarm init", "swarm join", "swarm leave", "swarm update", "node rm", "node update", "secret create", "secret rm", "config create", "config rm":
		return one(cloudChange, "Changes a Docker Swarm cluster with "+joinArgs(s.Args))
	case "plugin install", "plugin enable":
		return one(ctrPrivileged, "Installs or enables a Docker plugin, which runs with host privileges")
	}
	return nil
}

// ---- databases ----

// dbCall is one database client invocation.
type dbCall struct {
	tool    string
	conn    []string // words naming the target: host, URL, database, file
	stmts   []string // SQL or commands that can be seen
	unseen  string   // where SQL comes from that cannot be seen ("fix.sql"), "" if none
	lang    string   // "sql", "redis", "mongo"
	extra   []string // words from an outer command (kubectl -n prod, docker exec prod-db)
	servers []string // the values of the client's server options (dbServerSpecs)
	special cloudKind
	msg     string
}

var dbCLIs = table[map[string]string]{build: func() map[string]string {
	return map[string]string{"psql": "sql", "mysql": "sql", "mariadb": "sql", "sqlite3": "sql", "sqlite": "sql", "duckdb": "sql",
		"sqlcipher": "sql", "mongosh": "mongo", "mongo": "mongo", "redis-cli": "redis", "valkey-cli": "redis", "keydb-cli": "redis",
		"clickhouse-client": "sql", "clickhouse": "sql", "cockroach": "sql", "sqlcmd": "sql", "bq": "sql", "cqlsh": "sql", "usql": "sql",
		"pgcli": "sql", "mycli": "sql", "litecli": "sql", "heroku": "sql", "wrangler": "sql", "snowsql": "sql", "psql.bin": "sql",
		"dropdb": "admin", "createdb": "admin", "mysqladmin": "admin", "pg_dump": "dump", "pg_dumpall": "dump", "mysqldump": "dump",
		"mariadb-dump": "dump", "mongodump": "dump", "mongoexport": "dump", "pg_restore": "restore", "mongorestore": "restore",
		"mysqlimport": "restore", "mongoimport": "restore", "influx": "sql"}
}}

// dbCallOf parses a database client command; ok is false for anything else.
func dbCallOf(c *execCtx, s *Segment) (dbCall, bool) {
	name := s.Name()
	lang, ok := dbCLIs.get()[name]
	if !ok || len(s.Args) == 0 {
		return dbCall{}, false
	}
	d := dbCall{tool: name, lang: lang}
	args := s.Args[1:]
	d.servers = pkgOptValues(args, dbServerSpecs.get()[name].opts...)
	stdin := func() {
		if len(d.stmts) > 0 || d.unseen != "" {
			return
		}
		if s.Stdin != "" {
			d.stmts = append(d.stmts, s.Stdin)
			return
		}
		for _, r := range s.Redirs {
			if r.Op == "<" {
				d.unseen = r.Target
				return
			}
		}
		if s.PipeIn != nil {
			if out, ok, _ := segmentOutput(s.PipeIn, c.scope); ok {
				d.stmts = append(d.stmts, out)
				return
			}
			d.unseen = "the output of " + s.PipeIn.Name()
		}
	}
	switch name {
	case "psql", "pgcli", "psql.bin":
		d.stmts = pkgOptValues(args, "-c", "--command")
		for _, f := range pkgOptValues(args, "-f", "--file") {
			if f != "-" {
				d.unseen = f
			}
		}
		d.conn = append(pkgOptValues(args, "-h", "--host", "-d", "--dbname", "-U", "--username"), s.positional(0, "-c", "--command", "-f", "--file", "-h", "--host", "-p", "--port", "-U", "--username", "-d", "--dbname", "-v", "--set", "--variable", "-o", "--output", "-P", "--pset", "-F", "-R", "-T", "-L", "--log-file")...)
		if s.hasFlag("l", "--list") && len(d.stmts) == 0 {
			d.stmts = []string{"\\l"}
		}
		stdin()
	case "mysql", "mariadb", "mycli":
		d.stmts = pkgOptValues(args, "-e", "--execute")
		d.conn = append(pkgOptValues(args, "-h", "--host", "-D", "--database", "-S", "--socket"), s.positional(0, "-h", "--host", "-P", "--port", "-u", "--user", "-D", "--database", "-e", "--execute", "-S", "--socket", "--default-character-set")...)
		stdin()
	case "sqlite3", "sqlite", "duckdb", "sqlcipher", "litecli":
		p := s.positional(0, "-cmd", "-separator", "-nullvalue", "-init", "-newline")
		d.stmts = pkgOptValues(args, "-cmd")
		if f := pkgOptValues(args, "-init"); len(f) > 0 {
			d.unseen = f[0]
		}
		if len(p) > 0 {
			d.conn = p[:1]
			d.stmts = append(d.stmts, p[1:]...)
		}
		stdin()
	case "mongosh", "mongo":
		d.stmts = pkgOptValues(args, "--eval")
		for _, f := range pkgOptValues(args, "-f", "--file") {
			d.unseen = f
		}
		d.conn = pkgOptValues(args, "--host")
		for _, a := range s.positional(0, "--eval", "-f", "--file", "--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase", "--tlsCAFile", "--tlsCertificateKeyFile") {
			if strings.HasSuffix(a, ".js") || strings.HasSuffix(a, ".mongodb") {
				d.unseen = a
			} else {
				d.conn = append(d.conn, a)
			}
		}
		stdin()
	case "redis-cli", "valkey-cli", "keydb-cli":
		d.conn = pkgOptValues(args, "-h", "-u", "--uri")
		p := s.positional(0, "-h", "-p", "-a", "-n", "-u", "--uri", "--user", "--pass", "-s", "-r", "-i", "-d", "-D", "--cacert", "--cacertdir",
			"--cert", "--key", "--sni", "--tls-ciphers", "--tls-ciphersuites", "--eval", "--pattern", "--count", "--rdb", "--functions-rdb", "--memkeys-samples", "--quoted-pattern")
		if e := pkgOptValues(args, "--eval"); len(e) > 0 {
			d.unseen = e[0]
		}
		if s.arg("--pipe") {
			d.unseen = "a mass-insert stream"
		}
		switch {
		case len(p) > 0:
			d.stmts = []string{strings.Join(p, " ")}
		case s.arg("--scan", "--bigkeys", "--memkeys", "--hotkeys", "--latency", "--latency-history", "--stat", "--rdb", "--ldb", "--keystats", "--latency-dist"):
			d.stmts = []string{"scan"}
		default:
			stdin()
		}
	case "clickhouse-client", "clickhouse":
		if name == "clickhouse" && s.sub(0) != "client" && s.sub(0) != "local" {
			return dbCall{}, false
		}
		d.stmts = pkgOptValues(args, "-q", "--query")
		if f := pkgOptValues(args, "--queries-file"); len(f) > 0 {
			d.unseen = f[0]
		}
		d.conn = pkgOptValues(args, "-h", "--host", "-d", "--database")
		stdin()
	case "cockroach":
		if s.sub(0, "--url", "--host", "-d", "--database", "-e", "--execute") != "sql" {
			return dbCall{}, false
		}
		d.stmts = pkgOptValues(args, "-e", "--execute")
		d.conn = pkgOptValues(args, "--url", "--host", "-d", "--database")
		stdin()
	case "sqlcmd":
		d.stmts = pkgOptValues(args, "-Q", "-q", "--query")
		if f := pkgOptValues(args, "-i", "--input-file"); len(f) > 0 {
			d.unseen = f[0]
		}
		d.conn = pkgOptValues(args, "-S", "--server", "-d", "--database-name")
		stdin()
	case "bq":
		p := s.positional(0, "--project_id", "--dataset_id", "--location", "--format", "-n", "--max_rows", "--parameter", "--destination_table")
		if len(p) == 0 || p[0] != "query" {
			return dbCall{}, false
		}
		d.stmts = p[1:]
		d.conn = pkgOptValues(args, "--project_id", "--dataset_id", "--destination_table")
		stdin()
	case "cqlsh", "usql", "snowsql":
		d.stmts = pkgOptValues(args, "-e", "--execute", "-c", "--command", "-q", "--query")
		if f := pkgOptValues(args, "-f", "--file"); len(f) > 0 {
			d.unseen = f[0]
		}
		d.conn = append(pkgOptValues(args, "-k", "--keyspace", "-a", "--accountname", "-d", "--dbname"), s.positional(0, "-e", "--execute", "-c", "--command", "-q", "--query", "-f", "--file", "-k", "--keyspace", "-u", "--username", "-p", "--password", "-a", "-d")...)
		stdin()
	case "heroku":
		if s.sub(0) != "pg:psql" && s.sub(0) != "psql" {
			return dbCall{}, false
		}
		d.stmts = pkgOptValues(args, "-c", "--command")
		if f := pkgOptValues(args, "-f", "--file"); len(f) > 0 {
			d.unseen = f[0]
		}
		d.conn = append(pkgOptValues(args, "-a", "--app", "-r", "--remote"), "heroku")
		stdin()
	case "wrangler":
		p := s.positional(0, "--command", "--file", "--env", "-e", "--config", "-c")
		if len(p) < 2 || p[0] != "d1" || p[1] != "execute" && p[1] != "migrations" {
			return dbCall{}, false
		}
		if p[1] == "migrations" {
			return dbCall{}, false // judged as a migration
		}
		d.stmts = pkgOptValues(args, "--command")
		if f := pkgOptValues(args, "--file"); len(f) > 0 {
			d.unseen = f[0]
		}
		d.conn = p[2:]
		if s.arg("--remote") {
			d.conn = append(d.conn, "remote-production")
		}
		if e := pkgOptValues(args, "--env", "-e"); len(e) > 0 {
			d.conn = append(d.conn, e...)
		}
	case "influx":
		return influxCall(s, d)
	case "dropdb":
		p := s.positional(0, "-h", "--host", "-p", "--port", "-U", "--username", "--maintenance-db")
		d.conn = append(pkgOptValues(args, "-h", "--host"), p...)
		d.special, d.msg = dbDestructive, "Drops the database "+strings.Join(p, " ")+" with dropdb"
	case "createdb":
		d.conn = append(pkgOptValues(args, "-h", "--host"), s.positional(0, "-h", "--host", "-p", "--port", "-U", "--username", "-O", "--owner", "-T", "--template", "-E", "--encoding")...)
		d.stmts = []string{"create database"}
	case "mysqladmin":
		p := s.positional(0, "-h", "--host", "-P", "--port", "-u", "--user", "-S", "--socket")
		d.conn = pkgOptValues(args, "-h", "--host")
		if len(p) > 0 {
			switch p[0] {
			case "drop":
				d.special, d.msg = dbDestructive, "Drops the database "+strings.Join(p[1:], " ")+" with mysqladmin drop"
			case "status", "extended-status", "variables", "processlist", "ping", "version", "debug":
				d.stmts = []string{"show status"}
			default:
				d.stmts = []string{p[0] + " server"}
			}
		}
	case "pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump", "mongoexport":
		d.conn = append(pkgOptValues(args, "-h", "--host", "-d", "--dbname", "--uri", "--db"), s.positional(0, "-h", "--host", "-p", "--port", "-U", "--username", "-d", "--dbname", "-f", "--file", "-F", "--format", "-t", "--table", "-n", "--schema", "-u", "--user", "-P", "--uri", "--db", "-c", "--collection", "-o", "--out", "-T", "-N", "-j", "--jobs", "-Z", "--compress", "-E", "--encoding", "--exclude-table")...)
		d.stmts = []string{"select dump"}
	case "pg_restore", "mongorestore", "mysqlimport", "mongoimport":
		d.conn = pkgOptValues(args, "-h", "--host", "-d", "--dbname", "--uri", "--db")
		if s.hasFlag("c", "--clean", "--drop") && name != "mysqlimport" {
			d.special, d.msg = dbDestructive, "Restores a dump with "+name+" --clean/--drop, dropping the existing objects first"
		} else {
			d.unseen = "a dump"
		}
	}
	return d, true
}

// ---- SQL analysis: coarse, linear, conservative ----

// sqlStrip lowercases SQL and blanks string literals and comments, so that keywords inside
// them do not count. backslash says whether \' escapes a quote (MySQL) or not (standard SQL);
// callers try both and keep the worse reading.
func sqlStrip(sql string, backslash bool) string {
	var b strings.Builder
	b.Grow(len(sql))
	for i := 0; i < len(sql); i++ {
		ch := sql[i]
		switch {
		case ch == '\'':
			j := i + 1
			for j < len(sql) {
				if backslash && sql[j] == '\\' {
					j += 2
					continue
				}
				if sql[j] == '\'' {
					if j+1 < len(sql) && sql[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteString(" '' ")
			i = j
		case ch == '"' || ch == '`':
			j := strings.IndexByte(sql[i+1:], ch)
			if j < 0 {
				b.WriteString(strings.ToLower(sql[i+1:]))
				i = len(sql)
				continue
			}
			b.WriteString(strings.ToLower(sql[i+1 : i+1+j]))
			i += j + 1
		case ch == '-' && i+1 < len(sql) && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				i = len(sql)
				continue
			}
			i += j
			b.WriteByte('\n')
		case ch == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				i = len(sql)
				continue
			}
			i += j + 3
			b.WriteByte(' ')
		default:
			if ch >= 'A' && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			b.WriteByte(ch)
		}
	}
	return b.String()
}

type sqlVerdict struct {
	exfil       string // sends queried data to another server, "" if none
	escalate    string // runs code or writes files on the server, makes a superuser, "" if none
	secret      string // reads server files, password hashes or secret columns, "" if none
	destructive string // a description of the worst statement, "" if none
	write       string // the first writing statement, "" if none
	read        bool
}

var sqlWriteVerbs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"insert": true, "update": true, "delete": true, "alter": true, "create": true, "grant": true,
		"revoke": true, "merge": true, "upsert": true, "replace": true, "copy": true, "load": true, "call": true, "exec": true, "execute": true,
		"do": true, "vacuum": true, "reindex": true, "cluster": true, "comment": true, "refresh": true, "lock": true, "rename": true,
		"import": true, "attach": true, "detach": true, "optimize": true, "kill": true, "flush": true, "install": true, "uninstall": true,
		"reassign": true, "security": true, "drop": true, "truncate": true, "purge": true, "handler": true, "set_config": true}
}}

var sqlNeutral = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"begin": true, "start": true, "commit": true, "end": true, "rollback": true, "savepoint": true,
		"release": true, "set": true, "use": true, "reset": true, "discard": true, "listen": true, "unlisten": true, "prepare": true,
		"deallocate": true, "analyze": true, "checkpoint": true, "abort": true, "close": true, "declare": true, "fetch": true, "move": true}
}}

var sqlReadVerbs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"select": true, "show": true, "describe": true, "desc": true, "table": true, "values": true,
		"explain": true, "help": true, "pragma": true, "with": true, "list": true, "get": true, "source": false}
}}

// sqlAnalyze classifies SQL (and psql/sqlite meta-commands) as destructive, writing or
// reading. Anything it cannot classify counts as a write.
func sqlAnalyze(sql string) sqlVerdict {
	var v sqlVerdict
	for _, bs := range []bool{false, true} {
		w := sqlAnalyzeOnce(sqlStrip(sql, bs))
		if v.destructive == "" {
			v.destructive = w.destructive
		}
		if v.escalate == "" {
			v.escalate = w.escalate
		}
		if v.exfil == "" && !sqlNetLoopbackOnly(sql) {
			v.exfil = w.exfil
		} else if v.write == "" && w.exfil != "" {
			v.write = w.exfil
		}
		if v.secret == "" {
			v.secret = w.secret
		}
		if v.write == "" {
			v.write = w.write
		}
		v.read = v.read || w.read
	}
	if what := sqlLiteralEscalationIn(sql); v.escalate == "" && what != "" { // sql_admin.go: the option is a literal
		v.escalate = "SQL that " + what
	}
	return v
}

func sqlAnalyzeOnce(text string) sqlVerdict {
	var v sqlVerdict
	var sqlPart strings.Builder
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "\\"):
			meta := strings.Fields(t)[0]
			switch {
			case meta == "\\!" || strings.HasPrefix(meta, "\\i") || strings.HasPrefix(meta, "\\copy") || meta == "\\gexec" || strings.HasPrefix(meta, "\\ir") || meta == "\\lo_import" || meta == "\\lo_unlink":
				if v.write == "" {
					v.write = meta
				}
			default:
				v.read = true
				// "\dt ; DROP TABLE x" on one line: the rest still counts.
				if i := strings.IndexByte(t, ';'); i >= 0 {
					sqlPart.WriteString(t[i+1:])
					sqlPart.WriteByte('\n')
				}
			}
		case strings.HasPrefix(t, ".") && len(t) > 1 && isLetter(t[1]):
			cmd := strings.Fields(t)[0]
			switch cmd {
			case ".tables", ".schema", ".mode", ".headers", ".header", ".dump", ".indexes", ".indices", ".databases", ".show", ".help", ".quit",
				".exit", ".width", ".timer", ".output", ".once", ".backup", ".save", ".dbinfo", ".fullschema", ".stats", ".eqp", ".explain", ".echo",
				".bail", ".changes", ".nullvalue", ".separator", ".print", ".excel", ".lint", ".expert", ".version":
				v.read = true
			case ".restore":
				if v.destructive == "" {
					v.destructive = "replaces the whole database with .restore"
				}
			default:
				if v.write == "" {
					v.write = cmd
				}
			}
		default:
			sqlPart.WriteString(line)
			sqlPart.WriteByte('\n')
		}
	}
	// The statements are judged by the classifier MCP database tools use (sql.go).
	var stmts []mcpSqlStmt
	for _, st := range strings.Split(sqlPart.String(), ";") {
		if ws := mcpSqlWords(st); len(ws) > 0 {
			stmts = append(stmts, mcpClassifySQL(ws, st))
		}
	}
	for _, body := range sqlDollarBodies(sqlPart.String()) {
		k, what := sqlDoBody(body)
		stmts = append(stmts, mcpSqlStmt{kind: k, what: what})
	}
	first := func(dst *string, what string) {
		if *dst == "" {
			*dst = "SQL that " + what
		}
	}
	for _, st := range stmts {
		switch st.kind {
		case mcpSqlExfil:
			first(&v.exfil, st.what)
		case mcpSqlEscalate:
			first(&v.escalate, st.what)
		case mcpSqlSecret:
			first(&v.secret, st.what)
		case mcpSqlDestroy:
			first(&v.destructive, st.what)
		case mcpSqlRead:
			v.read = true
		case mcpSqlNeutral:
		default:
			first(&v.write, st.what)
		}
	}
	return v
}

// redisAnalyze classifies redis-cli command lines.
func redisAnalyze(lines []string) sqlVerdict {
	var v sqlVerdict
	for _, text := range lines {
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(strings.ToLower(line))
			if len(f) == 0 {
				continue
			}
			cmd := f[0]
			switch cmd {
			case "flushall", "flushdb":
				if v.destructive == "" {
					v.destructive = strings.ToUpper(cmd) + " (deletes every key)"
				}
			case "get", "mget", "ping", "info", "keys", "scan", "ttl", "pttl", "type", "exists", "hget", "hgetall", "hkeys", "hvals", "hlen",
				"hexists", "hmget", "hscan", "lrange", "llen", "lindex", "smembers", "scard", "sismember", "sscan", "srandmember", "zrange",
				"zrangebyscore", "zrevrange", "zcard", "zscore", "zrank", "zscan", "zcount", "strlen", "getrange", "dbsize", "time", "lastsave",
				"echo", "memory", "slowlog", "xrange", "xrevrange", "xlen", "xinfo", "xread", "pubsub", "monitor", "role", "command", "object",
				"dump", "bitcount", "getbit", "pfcount", "geopos", "geodist", "select", "hello", "auth", "readonly", "latency", "lolwut",
				"smismember", "zmscore", "hstrlen", "hrandfield", "zrandmember", "substr", "lpos", "sinter", "sunion", "sdiff", "zrangestore":
				if cmd == "zrangestore" {
					break
				}
				v.read = true
				continue
			case "client", "config", "cluster", "acl", "module", "function", "script":
				if len(f) > 1 && (f[1] == "list" || f[1] == "info" || f[1] == "get" || f[1] == "getname" || f[1] == "nodes" || f[1] == "slots" ||
					f[1] == "whoami" || f[1] == "cat" || f[1] == "users" || f[1] == "exists" || f[1] == "stats" || f[1] == "id" || f[1] == "dump" || f[1] == "shards") {
					v.read = true
					continue
				}
				if (cmd == "function" || cmd == "script") && len(f) > 1 && f[1] == "flush" && v.destructive == "" {
					v.destructive = strings.ToUpper(cmd) + " FLUSH"
				}
			}
			if v.write == "" && v.destructive == "" {
				v.write = strings.ToUpper(strings.Join(f[:min(2, len(f))], " "))
			}
		}
	}
	return v
}

// mongoAnalyze classifies mongo shell JavaScript.
func mongoAnalyze(code []string) sqlVerdict {
	var v sqlVerdict
	js := strings.ToLower(strings.Join(code, "\n"))
	compact := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, js)
	for _, d := range []string{"dropdatabase(", ".drop()", "deletemany({})", ".remove({})", "deletemany()", ".remove()", "dropuser(", "dropallusers("} {
		if strings.Contains(compact, d) {
			v.destructive = "db." + strings.TrimSuffix(d, "(") + "…"
			return v
		}
	}
	for _, w := range []string{"insert", "update", "delete", "remove", "replace", "createcollection", "createindex", "dropindex", "renamecollection",
		"bulkwrite", "findoneandupdate", "findoneanddelete", "findoneandreplace", "$out", "$merge", "runcommand", "admincommand", "eval(",
		"createuser", "grantroles", "shutdownserver", "save(", "load(", "fsynclock", ".drop("} {
		if strings.Contains(compact, w) {
			v.write = w
			return v
		}
	}
	if strings.TrimSpace(js) != "" {
		v.read = true
	}
	return v
}

// dbInner returns the database clients a container or pod command runs: docker exec db psql
// …, kubectl exec pod -- sh -c "psql …".
func dbInner(c *execCtx, s *Segment) ([]*Segment, []string) {
	var inner []string
	var extra []string
	switch pkgNorm(s.Name()) {
	case "docker", "docker-compose", "podman-compose":
		_, sub, rest := ctrSplit(s)
		switch sub {
		case "exec", "compose exec", "run", "compose run":
			_, first, cmd := ctrParse(rest)
			inner, extra = cmd, []string{first}
		}
	case "kubectl", "oc":
		p := s.positional(0, kubectlValueOpts...)
		if len(p) > 1 && (p[0] == "exec" || p[0] == "run") {
			inner = pkgAfter(s.Args[1:], "--")
			extra = append([]string{p[1]}, s.Args[1:]...)
		}
	case "heroku":
		if s.sub(0) == "run" {
			if cmd := s.positional(1, "-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env"); len(cmd) > 0 {
				inner = []string{"sh", "-c", strings.Join(cmd, " ")}
			}
			extra = append(pkgOptValues(s.Args[1:], "-a", "--app"), "heroku")
		}
	case "fly", "flyctl":
		if s.sub(0) == "ssh" {
			if cmd, ok := optValue(s.Args[1:], "-C", "--command"); ok {
				inner = []string{"sh", "-c", cmd}
				extra = append(pkgOptValues(s.Args[1:], "-a", "--app"), "fly")
			}
		}
	}
	if len(inner) == 0 {
		return nil, nil
	}
	segs, _ := extractSegments(c.scope, inner)
	var out []*Segment
	for _, sg := range segs {
		if _, ok := dbCLIs.get()[sg.Name()]; ok {
			out = append(out, sg)
		} else if _, ok := dbMigrationTool(sg); ok {
			out = append(out, sg)
		}
	}
	return out, extra
}

// dbTarget describes where a call connects, and whether that looks like production (prod)
// or cannot be known (dyn).
func dbTarget(c *execCtx, s *Segment, d dbCall, hints []string) (where string, prod, dyn bool) {
	for _, w := range d.conn {
		if strings.Contains(w, "$") {
			dyn = true
		}
	}
	words := append(append(append([]string{}, d.conn...), d.extra...), hints...)
	if w := prodWord(words...); w != "" {
		return capText(w), true, dyn
	}
	if kv := envProd(c, s); kv != "" {
		return "the database set by " + kv, true, dyn
	}
	if len(d.conn) > 0 {
		where = capText(strings.Join(d.conn, " "))
	}
	if dyn {
		return where, false, true
	}
	if where == "" && len(d.extra) > 0 {
		where = "the database reached through " + capText(d.extra[0])
	}
	if where == "" {
		where = "the default local database"
	}
	return where, false, false
}

// dbOps judges database clients and migration tools, directly or inside a container.
func dbOps(c *execCtx, s *Segment, hints []string) []cloudOp {
	var ops []cloudOp
	if d, ok := dbCallOf(c, s); ok {
		ops = append(ops, dbCallOps(c, s, d, hints)...)
	}
	if m, ok := dbMigrationTool(s); ok {
		ops = append(ops, dbMigrationOps(c, s, m, hints)...)
	}
	if inner, extra := dbInner(c, s); len(inner) > 0 {
		for _, in := range inner {
			h := append(append([]string{}, hints...), extra...)
			if d, ok := dbCallOf(c, in); ok {
				d.extra = extra
				ops = append(ops, dbCallOps(c, in, d, h)...)
			}
			if m, ok := dbMigrationTool(in); ok {
				ops = append(ops, dbMigrationOps(c, in, m, h)...)
			}
		}
	}
	return ops
}

func dbCallOps(c *execCtx, s *Segment, d dbCall, hints []string) []cloudOp {
	where, prod, dyn := dbTarget(c, s, d, hints)
	target := where
	switch {
	case prod:
		target = where + ", which looks like production"
	case dyn:
		target = "the database named by " + where + ", whose environment cannot be seen"
	}
	on := " with " + d.tool + " on " + target
	if d.special == dbDestructive && !prod && !dyn && dbLocalCall(c, d) {
		// dropdb -h localhost, influx bucket delete --host http://localhost:8086: the same
		// development reset as a DROP DATABASE to this machine (dbhost.go).
		return one(dbLocalReset, d.msg+", a database on this machine")
	}
	if d.special != 0 {
		if strings.Contains(d.msg, where) && !prod && !dyn {
			return one(d.special, d.msg)
		}
		return one(d.special, d.msg+" on "+target)
	}
	var v sqlVerdict
	switch d.lang {
	case "redis":
		v = redisAnalyze(d.stmts)
	case "mongo":
		v = mongoAnalyze(d.stmts)
	default:
		v = sqlAnalyze(strings.Join(d.stmts, ";\n"))
	}
	switch {
	case v.exfil != "":
		return one(dbExfil, "Runs "+v.exfil+on)
	case v.escalate != "":
		return one(dbEscalate, "Runs "+v.escalate+on)
	case v.secret != "":
		return one(dbSecretRead, "Runs "+v.secret+on)
	case v.destructive != "" && !prod && !dyn && dbLocalCall(c, d):
		return one(dbLocalReset, "Runs "+v.destructive+on+", a database on this machine")
	case v.destructive != "":
		return one(dbDestructive, "Runs "+v.destructive+on)
	case v.write != "" || d.unseen != "":
		what := v.write
		if what == "" {
			what = "the SQL in " + d.unseen + " (not visible to guardian)"
			if d.lang == "redis" || d.lang == "mongo" {
				what = "the commands in " + d.unseen + " (not visible to guardian)"
			}
		}
		if prod || dyn {
			return one(dbWriteProd, "Runs "+what+on)
		}
		if dbLocalWriteOK(c, d) {
			return one(dbLocalWrite, "Runs "+what+on+", a development database on this machine")
		}
		return one(dbWrite, "Runs "+what+on)
	}
	if len(d.stmts) == 0 && d.unseen == "" {
		msg := "Opens an interactive " + d.tool + " session on " + target
		if prod {
			return one(dbProdRead, msg+"; live data")
		}
		return one(dbRead, msg)
	}
	if prod {
		return one(dbProdRead, "Reads"+on+"; read-only, but live data")
	}
	return one(dbRead, "Reads"+on+" (read-only)")
}

// dbMigration is what a migration command does.
type dbMigration struct {
	tool        string
	destructive bool
	read        bool
	remote      bool // by design aimed at a deployed database (prisma migrate deploy, supabase db push)
	what        string
}

// dbMigrationTool recognizes migration and schema tools.
// dbMigrationOpts are the migration tools' options that take a value.
var dbMigrationOpts = []string{"-e", "--environment", "--env", "-c", "--config", "--schema", "--settings", "--database", "-x", "-n", "--name",
	"--url", "-u", "--database-url", "--dir", "-d", "--migrations-dir", "--env-file", "-p", "--project", "--db-url", "--endpoint", "--admin-secret",
	"--migrations-path", "-path", "-source", "-database", "--context", "-C", "--configuration", "--connection"}

// dbMigrationNames are the names dbMigrationTool's switch knows (TestDBMigrationNames keeps
// the two in step).
var dbMigrationNames = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"rails": true, "rake": true, "python": true, "python3": true, "manage.py": true, "django-admin": true, "alembic": true, "prisma": true, "knex": true, "sequelize": true, "sequelize-cli": true, "typeorm": true, "typeorm-ts-node-commonjs": true, "typeorm-ts-node-esm": true, "drizzle-kit": true, "flyway": true, "liquibase": true, "mvn": true, "gradle": true, "mix": true, "dotnet": true, "supabase": true, "wrangler": true, "dbmate": true, "goose": true, "migrate": true, "atlas": true, "hasura": true, "php": true, "artisan": true}
}}

func dbMigrationTool(s *Segment) (dbMigration, bool) {
	if len(s.Args) == 0 {
		return dbMigration{}, false
	}
	name := pkgNorm(s.Name())
	if !dbMigrationNames.get()[name] {
		return dbMigration{}, false // every segment asks; only these names can answer yes
	}
	p := s.positional(0, dbMigrationOpts...)
	first, second := "", ""
	if len(p) > 0 {
		first = p[0]
	}
	if len(p) > 1 {
		second = p[1]
	}
	m := dbMigration{tool: name}
	set := func(what string, destructive, read bool) (dbMigration, bool) {
		m.what, m.destructive, m.read = what, destructive, read
		return m, true
	}
	switch name {
	case "rails", "rake":
		for _, t := range p {
			switch t {
			case "db:drop", "db:reset", "db:purge", "db:truncate_all", "db:schema:load", "db:structure:load", "db:drop:all", "db:migrate:reset", "db:test:purge":
				if t == "db:test:purge" {
					continue
				}
				return set(name+" "+t, true, false)
			case "db:version", "db:migrate:status", "db:abort_if_pending_migrations", "db:schema:dump", "db:structure:dump", "db:system:change":
				if t == "db:system:change" {
					continue
				}
				return set(name+" "+t, false, true)
			}
			if strings.HasPrefix(t, "db:") || t == "dbconsole" || t == "db" {
				if t == "dbconsole" || t == "db" {
					return set(name+" "+t+" (an interactive database console)", false, true)
				}
				return set(name+" "+t, false, false)
			}
		}
	case "python", "python3":
		if len(p) >= 2 && strings.HasSuffix(p[0], "manage.py") {
			return djangoMigration(m, p[1:])
		}
	case "php", "artisan":
		if name == "php" {
			if len(p) < 2 || path.Base(p[0]) != "artisan" {
				return dbMigration{}, false
			}
			p = p[1:]
		}
		m.tool = "artisan"
		if len(p) == 0 {
			return dbMigration{}, false
		}
		switch p[0] {
		case "migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe":
			return set("php artisan "+p[0]+", which drops or rolls back every table", true, false)
		case "migrate", "migrate:rollback", "migrate:install", "db:seed":
			return set("php artisan "+p[0], false, false)
		case "migrate:status", "db:show", "db:table", "db:monitor":
			return set("php artisan "+p[0], false, true)
		}
	case "manage.py", "django-admin":
		if len(p) >= 1 {
			return djangoMigration(m, p)
		}
	case "alembic":
		switch first {
		case "upgrade", "downgrade", "stamp", "merge":
			if first == "downgrade" && second == "base" {
				return set("alembic downgrade base, which undoes every migration", true, false)
			}
			if first == "merge" {
				return dbMigration{}, false
			}
			return set("alembic "+first+" "+second, false, false)
		case "current", "history", "heads", "show", "check", "branches":
			return set("alembic "+first, false, true)
		}
	case "prisma":
		switch first + " " + second {
		case "migrate reset":
			return set("prisma migrate reset, which drops the database and reapplies every migration", true, false)
		case "migrate deploy":
			m.remote = true
			return set("prisma migrate deploy", false, false)
		case "migrate dev", "migrate resolve":
			return set("prisma "+first+" "+second, false, false)
		case "db push":
			if s.arg("--force-reset", "--accept-data-loss") {
				return set("prisma db push with --force-reset/--accept-data-loss, which can drop tables and data", true, false)
			}
			return set("prisma db push", false, false)
		case "db seed":
			return set("prisma db seed", false, false)
		case "migrate status", "migrate diff", "db pull":
			return set("prisma "+first+" "+second, false, true)
		case "db execute":
			return dbMigration{}, false
		}
	case "knex":
		switch {
		case first == "migrate:rollback" && s.arg("--all"), first == "migrate:down" && s.arg("--all"):
			return set("knex "+first+" --all, which undoes every migration", true, false)
		case strings.HasPrefix(first, "migrate:") && first != "migrate:make" && first != "migrate:status" && first != "migrate:list", first == "seed:run":
			return set("knex "+first, false, false)
		case first == "migrate:status" || first == "migrate:list":
			return set("knex "+first, false, true)
		}
	case "sequelize", "sequelize-cli":
		switch first {
		case "db:drop", "db:migrate:undo:all", "db:seed:undo:all":
			return set("sequelize "+first, true, false)
		case "db:migrate", "db:migrate:undo", "db:seed:all", "db:seed", "db:create", "db:seed:undo":
			return set("sequelize "+first, false, false)
		case "db:migrate:status":
			return set("sequelize "+first, false, true)
		}
	case "typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm":
		switch first {
		case "schema:drop":
			return set("typeorm schema:drop", true, false)
		case "migration:run", "migration:revert", "schema:sync", "query":
			return set("typeorm "+first, false, false)
		case "migration:show", "schema:log":
			return set("typeorm "+first, false, true)
		}
	case "drizzle-kit":
		switch first {
		case "push", "migrate":
			return set("drizzle-kit "+first, false, false)
		}
	case "flyway":
		switch first {
		case "clean":
			return set("flyway clean, which drops every object in the schemas", true, false)
		case "migrate", "repair", "baseline", "undo":
			return set("flyway "+first, false, false)
		case "info", "validate":
			return set("flyway "+first, false, true)
		}
	case "liquibase":
		switch strings.ToLower(first) {
		case "dropall", "drop-all":
			return set("liquibase dropAll", true, false)
		case "update", "rollback", "rollback-count", "rollbackcount", "rollback-to-date", "update-count", "updatecount", "update-to-tag", "tag", "changelog-sync", "changelogsync":
			return set("liquibase "+first, false, false)
		case "status", "history", "diff", "validate", "update-sql", "updatesql":
			return set("liquibase "+first, false, true)
		}
	case "mvn", "gradle":
		for _, t := range p {
			l := strings.ToLower(t)
			switch {
			case l == "flyway:clean" || l == "flywayclean" || strings.HasSuffix(l, ":flywayclean") || l == "liquibase:dropall" || strings.HasSuffix(l, "dropall"):
				return set(name+" "+t, true, false)
			case strings.HasPrefix(l, "flyway:migrate") || strings.HasSuffix(l, "flywaymigrate") || l == "liquibase:update" || l == "update" && name == "gradle":
				return set(name+" "+t, false, false)
			}
		}
	case "mix":
		switch first {
		case "ecto.drop", "ecto.reset":
			return set("mix "+first, true, false)
		case "ecto.migrate", "ecto.rollback", "ecto.create", "ecto.setup", "ecto.load":
			if first == "ecto.load" {
				return set("mix ecto.load, which replaces the schema", true, false)
			}
			return set("mix "+first, false, false)
		case "ecto.migrations":
			return set("mix ecto.migrations", false, true)
		}
	case "dotnet":
		if first == "ef" && second == "database" && len(p) > 2 {
			if p[2] == "drop" {
				return set("dotnet ef database drop", true, false)
			}
			if p[2] == "update" {
				return set("dotnet ef database update", false, false)
			}
		}
	case "supabase":
		if first == "db" && second == "reset" {
			if s.arg("--linked") || s.arg("--db-url") {
				m.remote = true
				return set("supabase db reset on the linked remote project, which wipes its database", true, false)
			}
			return set("supabase db reset, which wipes the local database and reapplies migrations", true, false)
		}
		if first == "db" && second == "push" || first == "migration" && second == "up" && s.arg("--linked") {
			m.remote = true
			return set("supabase "+first+" "+second+" (the linked remote project)", false, false)
		}
		if first == "migration" && second == "up" {
			return set("supabase migration up", false, false)
		}
	case "wrangler":
		if first == "d1" && second == "migrations" && len(p) > 2 && p[2] == "apply" {
			m.remote = s.arg("--remote")
			return set("wrangler d1 migrations apply", false, false)
		}
	case "dbmate", "goose", "migrate", "atlas", "hasura":
		for _, t := range p {
			switch t {
			case "drop", "reset", "clean":
				return set(name+" "+t, true, false)
			case "up", "migrate", "rollback", "down", "redo", "up-to", "down-to", "apply", "force", "goto", "fix":
				if t == "down" && name == "migrate" && !hasNumberAfter(p, "down") {
					return set("migrate down, which undoes every migration", true, false)
				}
				return set(name+" "+t, false, false)
			case "status", "version", "inspect", "dump", "lint", "diff":
				return set(name+" "+t, false, true)
			}
		}
	}
	return dbMigration{}, false
}

func hasNumberAfter(p []string, word string) bool {
	for i, w := range p {
		if w == word && i+1 < len(p) && strings.Trim(p[i+1], "0123456789") == "" {
			return true
		}
	}
	return false
}

func djangoMigration(m dbMigration, p []string) (dbMigration, bool) {
	switch p[0] {
	case "migrate":
		if len(p) > 2 && p[2] == "zero" {
			m.what, m.destructive = "manage.py migrate "+p[1]+" zero, which undoes every migration of the app", true
			return m, true
		}
		m.what = "manage.py migrate"
		return m, true
	case "flush", "reset_db", "sqlflush":
		if p[0] == "sqlflush" {
			m.what, m.read = "manage.py sqlflush", true
			return m, true
		}
		m.what, m.destructive = "manage.py "+p[0]+", which deletes every row", true
		return m, true
	case "loaddata", "createsuperuser", "changepassword":
		m.what = "manage.py " + p[0]
		return m, true
	case "showmigrations", "sqlmigrate", "dbshell", "inspectdb":
		m.what, m.read = "manage.py "+p[0], true
		return m, true
	}
	return dbMigration{}, false
}

func dbMigrationOps(c *execCtx, s *Segment, m dbMigration, hints []string) []cloudOp {
	w := prodWord(append(append([]string{}, s.Args[1:]...), hints...)...)
	if w == "" {
		w = envProd(c, s)
	}
	for _, a := range s.Args[1:] {
		if i := strings.Index(a, "$"); i >= 0 && !m.remote && w == "" {
			v := strings.ToUpper(a[i:])
			if strings.Contains(v, "URL") || strings.Contains(v, "DATABASE") || strings.Contains(v, "DB") || strings.Contains(v, "DSN") {
				m.remote = true
				m.what += " on " + a[i:]
			}
		}
	}
	elsewhere := false // the request names the database, on another machine
	if h := requestRemoteDB(c, s); h != "" && w == "" && !m.remote {
		m.remote, elsewhere = true, true
		m.what = strings.TrimSpace(m.what) + " on " + h
	}
	on := ""
	if w != "" {
		on = " against " + capText(w) + ", which looks like production"
	} else if elsewhere {
		on = ", a database on another machine (staging or production, as far as guardian can tell)"
	} else if m.remote {
		on = " against a database whose URL comes from the environment, which guardian cannot see"
	}
	switch {
	case m.destructive && w == "" && !m.remote:
		switch local, guardOff := devReset(c, s, m); {
		case local && guardOff != "":
			return one(dbWriteProd, "Runs "+m.what+" with "+guardOff+": it wipes whatever database the configuration names")
		case local:
			return one(dbLocalReset, "Runs "+m.what+" against the project's development database, discarding its local data")
		}
		return one(dbDestructive, "Runs "+m.what)
	case m.destructive:
		return one(dbDestructive, "Runs "+m.what+on)
	case m.read:
		if w != "" {
			return one(dbProdRead, "Runs "+m.what+on+"; read-only")
		}
		return one(dbRead, "Runs "+m.what+" (read-only)")
	case w != "" || m.remote:
		return one(dbWriteProd, "Runs database migrations ("+m.what+")"+on)
	}
	return one(dbMigrate, "Runs database migrations ("+m.what+") against the project's configured development database")
}

// memoCloud computes a segment's cloud (or database) operations once per request: the rules
// of the family run one after another on the same segment.
func (c *execCtx) memoCloud(m map[*Segment][]cloudOp, last *memoLast[[]cloudOp], s *Segment, db bool) []cloudOp {
	if last.seg == s && s != nil {
		return last.v
	}
	if ops, ok := m[s]; ok {
		*last = memoLast[[]cloudOp]{s, ops}
		return ops
	}
	ops := cloudOpsCompute(c, s, db)
	m[s] = ops
	*last = memoLast[[]cloudOp]{s, ops}
	return ops
}

// dbLocal reports whether a database client's connection words all point at this machine
// (localhost, 127.x, a unix socket, a database file in the workspace) and name one at all.
func dbLocal(c *execCtx, conn []string) bool {
	seen := false
	for _, w := range conn {
		lw := strings.ToLower(w)
		switch {
		case strings.HasPrefix(lw, "-"):
			continue
		case dbWordLocal(w):
			seen = true
		case strings.Contains(lw, "://") || strings.Contains(lw, "@") || strings.Contains(lw, "host="):
			return false // a remote URL or DSN
		case strings.HasSuffix(lw, ".db") || strings.HasSuffix(lw, ".sqlite") || strings.HasSuffix(lw, ".sqlite3"):
			if c.target(w).zone != ZoneWorkspace {
				return false
			}
			seen = true
		case strings.Contains(lw, "."):
			return false // a host name
		}
	}
	return seen
}

// ctrHomeMountOnly reports a container.privileged message whose only privilege is a mount of
// the home directory: host access a human may well intend (a scratch container over one's
// files), asked about rather than denied like --privileged or the runtime socket.
func ctrHomeMountOnly(msg string) bool {
	if !strings.Contains(msg, "(the home directory)") {
		return false
	}
	for _, w := range []string{"--privileged", "socket", "whole filesystem", "--pid", "--cap-add", "--security-opt", "system location",
		"--device", "vital directory", "--userns", "--uts", "--ipc", "--network", "--net"} {
		if strings.Contains(msg, w) {
			return false
		}
	}
	return true
}
