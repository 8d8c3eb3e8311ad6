package riskmodel

import (
	"net"
	"net/url"
	"strings"
)

// The destructive uses of the tools whose routine uses catalog/commands_r20.toml lists: HPC
// schedulers, message brokers, DNS servers, the mainframe (Zowe, RACF, MQ, Db2), Databricks
// and MuleSoft, and attack tools pointed at hosts that are not the user's lab. Each is on
// docs/policy.md's deny list by what it does: deleting data stores or bulk-deleting
// production data, privilege escalation (granting oneself an administrator's power over a
// shared system), reading a credential store, stopping production, attacking another party's
// systems. Where a use is on the list only against production, the condition says so; the
// same use elsewhere stays as it was (unknown, asked).
//
// The simple cases are rows of the cloud deny tables' shape (cloud_denylist.go: a CLI, its
// command words, a condition on its options), matched by cloudRowMatch. Sources, per tool:
// slurm.schedmd.com (scontrol, sacctmgr), doc.powerdns.com (pdnsutil), rabbitmq.com/docs/cli
// (rabbitmqctl), kafka.apache.org/documentation (kafka-topics, kafka-consumer-groups),
// docs.databricks.com/dev-tools/cli/commands, docs.mulesoft.com/anypoint-cli, docs.zowe.org
// web help (zos-files delete, zos-console issue command), IBM z/OS MVS System Commands
// (CANCEL, FORCE, STOP, HALT, Z EOD), IBM RACF Command Language Reference (PERMIT, ALTUSER,
// SETROPTS, RDEFINE, RALTER), IBM MQ MQSC reference (CLEAR QLOCAL, DELETE QLOCAL), the
// tldr pages of hydra, medusa, ncrack, masscan, zmap and sqlmap.

// r20DestroyRows delete data stores or production data.
var r20DestroyRows = table[map[string][]cloudDenyRow]{build: func() map[string][]cloudDenyRow {
	return cloudRowsByCLI([]cloudDenyRow{
		{"pdnsutil", "delete-zone", nil, "deletes a DNS zone and every record in it"},
		{"rabbitmqctl", "purge_queue", prodArg, "purges every message of a production queue"},
		{"rabbitmqctl", "delete_queue", prodArg, "deletes a production queue and its messages"},
		{"rabbitmqctl", "delete_vhost", prodArg, "deletes a production virtual host with its queues and messages"},
		{"rabbitmqctl", "reset", prodArg, "wipes a production broker node's queues, users and configuration"},
		{"rabbitmqctl", "force_reset", prodArg, "wipes a production broker node's queues, users and configuration"},
		{"kafka-topics", "", withFlag("--delete", prodArg), "deletes a production Kafka topic and its messages"},
		{"kafka-topics.sh", "", withFlag("--delete", prodArg), "deletes a production Kafka topic and its messages"},
		{"databricks", "fs rm", prodArg, "deletes production files from DBFS"},
		{"databricks", "workspace delete", prodArg, "deletes production notebooks"},
		{"databricks", "catalogs delete", nil, "deletes a Unity Catalog catalog"},
		{"databricks", "schemas delete", prodArg, "deletes a production schema"},
		{"databricks", "tables delete", prodArg, "deletes a production table"},
		{"databricks", "clusters permanent-delete", prodArg, "permanently deletes a production cluster"},
		{"zowe", "zos-files delete", zosProdDataSet, "deletes a production or system z/OS data set"},
		{"zowe", "zos-files del", zosProdDataSet, "deletes a production or system z/OS data set"},
		{"zowe", "files delete", zosProdDataSet, "deletes a production or system z/OS data set"},
		{"zowe", "files del", zosProdDataSet, "deletes a production or system z/OS data set"},
	})
}}

// r20AdminRows grant the caller an administrator's power over a shared system.
var r20AdminRows = table[map[string][]cloudDenyRow]{build: func() map[string][]cloudDenyRow {
	return cloudRowsByCLI([]cloudDenyRow{
		{"rabbitmqctl", "set_user_tags", argHas("administrator"), "makes a broker user an administrator"},
		{"scontrol", "update", argHas("priority=", "nice=-"), "raises a job's priority past the fair-share queue, an administrator's power"},
		{"sacctmgr", "modify", nil, "changes the cluster's accounts, users, shares or limits, an administrator's power"},
		{"sacctmgr", "update", nil, "changes the cluster's accounts, users, shares or limits, an administrator's power"},
		{"sacctmgr", "delete", nil, "deletes the cluster's accounts, users or associations, an administrator's power"},
		{"sacctmgr", "remove", nil, "deletes the cluster's accounts, users or associations, an administrator's power"},
	})
}}

// r20ProdRows stop or remove production services.
var r20ProdRows = table[map[string][]cloudDenyRow]{build: func() map[string][]cloudDenyRow {
	return cloudRowsByCLI([]cloudDenyRow{
		{"scontrol", "shutdown", nil, "shuts the cluster's Slurm controller and daemons down"},
		{"anypoint-cli-v4", "runtime-mgr cloudhub-application delete", prodArg, "deletes a production application"},
		{"anypoint-cli-v4", "runtime-mgr cloudhub2-application delete", prodArg, "deletes a production application"},
		{"anypoint-cli", "runtime-mgr cloudhub-application delete", prodArg, "deletes a production application"},
	})
}}

// prodArg is a condition met when an argument names production (prodLike, or a mainframe
// or MQ style name with PROD or PRD run into it: QMPROD01, CICSPRD1).
func prodArg(s *Segment) string {
	for _, a := range s.Args[1:] {
		if prodLike(a) || looseProd(a) {
			return a
		}
	}
	return ""
}

// looseProd reports a name with PROD or PRD run into it in capitals (QMPROD01, CICSPRD1,
// PROD.CLAIMS.MASTER), the way mainframe, MQ and job names spell production.
func looseProd(w string) bool {
	return strings.Contains(w, "PROD") && !strings.Contains(w, "PRODUCT") || strings.Contains(w, "PRD")
}

// withFlag is a condition met when the call has the flag and then cond holds.
func withFlag(flag string, cond func(*Segment) string) func(*Segment) string {
	return func(s *Segment) string {
		if !s.arg(flag) {
			return ""
		}
		return cond(s)
	}
}

// zosProdDataSet is met by a z/OS data set name that is production (a PROD/PRD qualifier),
// a system data set (SYS1.…) or a wildcard over many.
func zosProdDataSet(s *Segment) string {
	for _, a := range s.Args[1:] {
		u := strings.ToUpper(strings.Trim(a, `'"`))
		if strings.HasPrefix(u, "-") {
			continue
		}
		if strings.HasPrefix(u, "SYS1.") || strings.HasPrefix(u, "SYS2.") || looseProd(u) || strings.Contains(u, ".") && strings.Contains(u, "*") {
			return a
		}
	}
	return ""
}

// zoweWords returns a Zowe call's command words with the group aliases spelled out
// (files → zos-files, console → zos-console, tso → zos-tso, iss → issue, cmd → command).
func zoweWords(s *Segment) []string {
	alias := map[string]string{"files": "zos-files", "console": "zos-console", "tso": "zos-tso", "jobs": "zos-jobs",
		"iss": "issue", "cmd": "command", "dl": "download", "ds": "data-set", "vw": "view", "cp": "copy"}
	var out []string
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-") {
			break
		}
		if v, ok := alias[a]; ok && len(out) < 3 {
			a = v
		}
		out = append(out, a)
	}
	return out
}

// racfDataSet reports the RACF database or one of its backups: every user's password hashes.
func racfDataSet(name string) bool {
	u := strings.ToUpper(strings.Trim(name, `'"`))
	return strings.Contains(u, "RACF") && (strings.HasPrefix(u, "SYS1.") || strings.Contains(u, "RACFDS") || strings.Contains(u, "RACFDB") || strings.Contains(u, ".RACF.") || strings.HasSuffix(u, ".RACF"))
}

// zoweRACFRead says why a Zowe call reads the RACF database, "".
func zoweRACFRead(s *Segment) string {
	if s.Name() != "zowe" {
		return ""
	}
	w := zoweWords(s)
	if len(w) < 3 || w[0] != "zos-files" || w[1] != "download" && w[1] != "view" && w[1] != "copy" {
		return ""
	}
	for _, a := range w[2:] {
		if racfDataSet(a) {
			return "Runs zowe zos-files " + w[1] + " of " + a + ", the RACF database, which holds every user's password hashes"
		}
	}
	return ""
}

// racfAdminVerbs are the RACF commands that change who may do what (IBM RACF Command
// Language Reference), with their abbreviations.
var racfAdminVerbs = wordSet{words: "PERMIT PE ALTUSER ALU ADDUSER AU CONNECT CO RALTER RALT RDEFINE RDEF SETROPTS SETR ALTDSD ALD ADDSD AD ADDGROUP AG ALTGROUP ALG"}

// zoweTSOSecurity says why a Zowe TSO or console command changes RACF security, "", and
// whether that is certain: a grant of the system-wide powers (SPECIAL, OPERATIONS, AUDITOR),
// a general-resource class that guards system functions, or SETROPTS is; another profile
// change (a permit on one's own data sets) is only high.
func zoweTSOSecurity(s *Segment) (string, bool) {
	if s.Name() != "zowe" {
		return "", false
	}
	w := zoweWords(s)
	if len(w) < 4 || w[0] != "zos-tso" && w[0] != "zos-console" || w[1] != "issue" || w[2] != "command" {
		return "", false
	}
	cmd := strings.ToUpper(strings.Join(w[3:], " "))
	f := strings.Fields(cmd)
	if len(f) == 0 || !racfAdminVerbs.has(f[0]) {
		return "", false
	}
	why := "Issues the RACF command " + capText(cmd) + " through Zowe, changing who may do what on the mainframe"
	if f[0] == "SETROPTS" || f[0] == "SETR" {
		return why + " (system-wide security options)", true
	}
	for _, k := range []string{"SPECIAL", "OPERATIONS", "AUDITOR", "CLASS(FACILITY)", "CLASS(SURROGAT)", "CLASS(OPERCMDS)", "CLASS(UNIXPRIV)", "CLASS(TSOAUTH)", "CLASS(PROGRAM)", "CLASS(XFACILIT)", "CLASS(DASDVOL)", "IRR."} {
		if strings.Contains(cmd, k) {
			return why + " (" + strings.ToLower(strings.Trim(k, ".")) + ")", true
		}
	}
	return why, false
}

// zosStopVerbs are the MVS system commands that end work: CANCEL, FORCE, STOP, MODIFY …,
// STOP and the system's own halt (Z EOD, QUIESCE).
var zosStopVerbs = wordSet{words: "C CANCEL FORCE P STOP"}

// zoweConsoleStop says why a Zowe console command stops a production address space or the
// system, "", and whether that is certain.
func zoweConsoleStop(s *Segment) (string, bool) {
	if s.Name() != "zowe" {
		return "", false
	}
	w := zoweWords(s)
	if len(w) < 4 || w[0] != "zos-console" || w[1] != "issue" || w[2] != "command" {
		return "", false
	}
	cmd := strings.ToUpper(strings.Join(w[3:], " "))
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return "", false
	}
	switch {
	case f[0] == "Z" && len(f) > 1 && f[1] == "EOD", f[0] == "HALT", f[0] == "QUIESCE":
		return "Issues the console command " + capText(cmd) + ", which shuts the z/OS system down", true
	case zosStopVerbs.has(f[0]) && len(f) > 1:
		target := strings.Split(f[1], ",")[0]
		why := "Issues the console command " + capText(cmd) + ", which ends the address space " + target
		if looseProd(target) || prodLike(target) {
			return why + ", a production region", true
		}
		return why, false
	}
	return "", false
}

// mqscCommands returns the MQSC a runmqsc call reads: a here-document, or an echo/printf
// piped in. Nothing when it reads a file or a pipe it cannot see.
func mqscCommands(s *Segment) string {
	if s.Stdin != "" {
		return s.Stdin
	}
	if p := s.PipeIn; p != nil && (p.Name() == "echo" || p.Name() == "printf") {
		return strings.Join(p.Args[1:], " ")
	}
	return ""
}

// runmqscDestroy says why a runmqsc call clears or deletes queues, the queue manager's
// channels' security or the queue manager, "", and whether that is certain (a production
// queue manager).
func runmqscDestroy(s *Segment) (string, bool) {
	if s.Name() != "runmqsc" {
		return "", false
	}
	mq := strings.ToUpper(mqscCommands(s))
	what := ""
	for _, k := range []string{"CLEAR QLOCAL", "CLEAR QL", "DELETE QLOCAL", "DELETE QL", "DELETE QMODEL", "DELETE QREMOTE", "DELETE QALIAS", "DELETE QR", "DELETE QA", "DELETE CHANNEL", "DELETE CHL", "DELETE TOPIC", "DELETE SUB"} {
		if strings.Contains(mq, k+"(") || strings.Contains(mq, k+" ") {
			what = k
			break
		}
	}
	if what == "" {
		return "", false
	}
	qm := ""
	for _, a := range s.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			qm = a
		}
	}
	why := "Runs MQSC " + what + " through runmqsc, deleting queued messages or queue definitions"
	if qm != "" && (looseProd(strings.ToUpper(qm)) || prodLike(qm)) {
		return why + " on the production queue manager " + qm, true
	}
	return why, false
}

// db2Destroy says why a db2 call drops or truncates a database object, "", and whether that
// is certain: the request connects to, or names, production.
func db2Destroy(c *execCtx, s *Segment) (string, bool) {
	if s.Name() != "db2" || len(s.Args) < 2 {
		return "", false
	}
	stmt := strings.ToUpper(strings.TrimSpace(strings.Join(s.Args[1:], " ")))
	stmt = strings.TrimPrefix(stmt, "-V ")
	if !strings.HasPrefix(stmt, "DROP ") && !strings.HasPrefix(stmt, "TRUNCATE ") {
		return "", false
	}
	why := "Runs db2 " + capText(stmt) + ", dropping or emptying a database object"
	for _, o := range c.segs {
		if o.Name() != "db2" {
			continue
		}
		for _, a := range o.Args[1:] {
			if prodLike(a) || looseProd(strings.ToUpper(a)) {
				return why + " on production (" + a + ")", true
			}
		}
	}
	return why, false
}

// attackTargets returns the hosts an attack tool's arguments name: URL hosts, IP addresses
// and ranges, host:port and host names (not files: a word with a path or a list's extension).
func attackTargets(args []string) []string {
	var out []string
	for _, a := range args {
		if i := strings.IndexByte(a, '='); strings.HasPrefix(a, "-") && i > 0 {
			a = a[i+1:]
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		switch labWordKind(a) {
		case labPrivate, labOutside:
			if labHostName(a) && listFileExt(a) {
				continue
			}
			out = append(out, a)
		}
	}
	return out
}

// listFileExt reports a word ending like a word list or a results file (users.txt).
func listFileExt(w string) bool {
	ext := strings.ToLower(w[strings.LastIndexByte(w, '.')+1:])
	switch ext {
	case "txt", "lst", "list", "csv", "json", "xml", "yaml", "yml", "log", "conf", "cfg", "md", "out", "pcap", "gz", "zip", "dic", "dict", "req", "har":
		return true
	}
	return false
}

// labName reports a host name under a reserved lab or local suffix (RFC 6761, RFC 8375).
func labName(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	for _, suf := range []string{".test", ".local", ".localhost", ".lab", ".internal", ".home.arpa", ".lan"} {
		if strings.HasSuffix(h, suf) {
			return true
		}
	}
	return isLocalHost(h)
}

// outsideTarget returns the first target that is not loopback, a private address or a lab
// name: a host the user's lab does not hold.
func outsideTarget(targets []string) string {
	for _, t := range targets {
		if labWordKind(t) == labPrivate {
			continue
		}
		h := t
		if u, err := url.Parse(t); err == nil && strings.Contains(t, "://") {
			h = u.Hostname()
		} else if hh, port, ok := strings.Cut(t, ":"); ok && isDigits(port) {
			h = hh
		}
		if net.ParseIP(h) == nil && labName(h) {
			continue
		}
		return t
	}
	return ""
}

// attackOutside says why a login brute-forcer, an internet-scale scanner or an SQL-injection
// dumper is pointed at a host that is not the user's lab, "".
func attackOutside(s *Segment) string {
	n := s.Name()
	switch n {
	case "hydra", "medusa", "ncrack", "patator", "crowbar", "thc-hydra":
		if t := outsideTarget(attackTargets(s.Args[1:])); t != "" {
			return "Runs " + n + " against " + t + ", brute-forcing the logins of a host that is not the user's lab"
		}
	case "masscan", "zmap":
		if t := outsideTarget(attackTargets(s.Args[1:])); t != "" {
			return "Runs " + n + " over " + t + ", scanning addresses on the internet"
		}
	case "sqlmap":
		if !s.arg("--dump", "--dump-all", "--passwords", "--os-shell", "--os-pwn", "--os-cmd", "--sql-shell", "--file-read", "--file-write", "--priv-esc", "-a", "--all") {
			return ""
		}
		u, _ := optValue(s.Args[1:], "-u", "--url")
		if t := outsideTarget(attackTargets([]string{u})); u != "" && t != "" {
			return "Runs sqlmap against " + t + ", extracting data or a shell from a host that is not the user's lab through SQL injection"
		}
	}
	return ""
}

// r20RowRule is a rule of one of the deny tables above.
func r20RowRule(rows *table[map[string][]cloudDenyRow]) func(*execCtx, *Segment) (string, bool) {
	return func(_ *execCtx, s *Segment) (string, bool) {
		if len(s.Args) < 2 {
			return "", false
		}
		if m := r16RowMatch(rows.get(), s); m != "" {
			return m, true
		}
		// A row with no command words holds for the CLI whatever its words: kafka-topics
		// takes only options, whose values cloudCommandWords would read as words.
		for _, r := range rows.get()[s.Name()] {
			if r.path != "" || r.cond == nil {
				continue
			}
			if extra := r.cond(s); extra != "" {
				return "Runs " + s.Name() + ", which " + r.why + " (" + capText(extra) + ")", true
			}
		}
		return "", false
	}
}

// unsure turns a (why, certain) check into a rule body: an uncertain match is high and asked.
func unsure(f func(*execCtx, *Segment) (string, bool)) func(*execCtx, *Segment) (string, bool) {
	return func(c *execCtx, s *Segment) (string, bool) {
		why, sure := f(c, s)
		if why == "" {
			return "", false
		}
		if !sure {
			c.certainty = certaintyUnsure
		}
		return why, true
	}
}

// r20OpsRules are the exec rules of the r20 catalogue's destructive uses.
func r20OpsRules() []*Rule {
	seg := func(f func(*Segment) (string, bool)) func(*execCtx, *Segment) (string, bool) {
		return func(_ *execCtx, s *Segment) (string, bool) { return f(s) }
	}
	return []*Rule{
		{ID: "ops.data-destroy", Level: High, Category: CatDataDeletion, Certain: true,
			Message: "Deletes a data store or production data: a DNS zone, a queue's messages, a topic, a data set, a table",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if m, ok := r20RowRule(&r20DestroyRows)(c, s); ok {
					return m, true
				}
				if m, ok := unsure(seg(runmqscDestroy))(c, s); ok {
					return m, true
				}
				return unsure(db2Destroy)(c, s)
			}},
		{ID: "ops.admin-grant", Level: High, Category: CatPrivilegeEscalation, Certain: true,
			Message: "Grants an administrator's power over a shared system: a broker administrator, RACF authority, scheduler priority or accounting",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if m, ok := r20RowRule(&r20AdminRows)(c, s); ok {
					return m, true
				}
				return unsure(seg(zoweTSOSecurity))(c, s)
			}},
		{ID: "ops.prod-stop", Level: High, Category: CatFinancialOrProduction, Certain: true,
			Message: "Stops or removes a production service: a mainframe region, the system, an application",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if m, ok := r20RowRule(&r20ProdRows)(c, s); ok {
					return m, true
				}
				return unsure(seg(zoweConsoleStop))(c, s)
			}},
		{ID: "cred.racf-database", Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Reads the mainframe's RACF database, every user's password hashes",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				m := zoweRACFRead(s)
				return m, m != ""
			}},
		{ID: "hpc.large-allocation", Level: Medium, Category: CatResourceExhaustion,
			Message: "Books a large share of a shared cluster: many nodes for days",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				m := largeAllocation(s)
				return m, m != ""
			}},
		{ID: "net.attack-outside", Level: High, Category: CatNetworkEgress, Certain: true,
			Message: "Points an attack tool at a host that is not the user's lab: a login brute-forcer, an internet scan, an SQL-injection dump",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				m := attackOutside(s)
				return m, m != ""
			}},
	}
}

// mqscReadVerbs are the MQSC commands that only display or test (IBM MQ MQSC reference).
var mqscReadVerbs = wordSet{words: "DISPLAY DIS PING END"}

// mqscReadOnly says what a runmqsc call does when every MQSC command it is fed is a DISPLAY
// or a PING, "" otherwise (a file or a pipe it cannot see, or any other command).
func mqscReadOnly(s *Segment) string {
	if s.Name() != "runmqsc" || s.Privileged {
		return ""
	}
	mq := strings.ReplaceAll(mqscCommands(s), `\n`, "\n") // printf 'A\nB' and echo -e: one command a line
	if strings.TrimSpace(mq) == "" {
		return ""
	}
	n := 0
	for _, line := range strings.Split(mq, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "*") {
			continue
		}
		f := strings.Fields(strings.ToUpper(line))
		if !mqscReadVerbs.has(f[0]) || strings.Contains(line, ";") {
			return ""
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return "Runs MQSC DISPLAY commands through runmqsc: it shows queue manager objects and changes nothing"
}

// db2ReadOnly says what a db2 command-line call does when it only connects without a
// password on the command line, ends the connection, lists or describes, or runs one SELECT,
// "" otherwise. A request that names production anywhere stays as it was.
func db2ReadOnly(c *execCtx, s *Segment) string {
	if s.Name() != "db2" || s.Privileged || len(s.Args) < 2 {
		return ""
	}
	for _, o := range c.segs {
		for _, a := range o.Args {
			if prodLike(a) || looseProd(strings.ToUpper(a)) {
				return ""
			}
		}
	}
	stmt := strings.ToUpper(strings.TrimSpace(strings.Join(s.Args[1:], " ")))
	f := strings.Fields(stmt)
	switch {
	case f[0] == "CONNECT" && len(f) == 3 && f[1] == "TO", f[0] == "TERMINATE", f[0] == "DISCONNECT",
		f[0] == "LIST" && len(f) > 1 && (f[1] == "TABLES" || f[1] == "DB" || f[1] == "DATABASE" || f[1] == "NODE" || f[1] == "TABLESPACES" || f[1] == "APPLICATIONS"),
		f[0] == "DESCRIBE", f[0] == "GET" && len(f) > 1 && (f[1] == "DB" || f[1] == "DBM" || f[1] == "DATABASE" || f[1] == "CONNECTION"):
		return "Runs db2 " + capText(stmt) + ", which only reads"
	case f[0] == "SELECT" || f[0] == "WITH" || f[0] == "VALUES":
		if strings.Contains(stmt, ";") || strings.Contains(stmt, " INTO ") || strings.Contains(stmt, "FOR UPDATE") ||
			containsAny(stmt, "INSERT ", "UPDATE ", "DELETE ", "MERGE ", "DROP ", "CALL ") {
			return ""
		}
		return "Runs db2 " + capText(stmt) + ", a query that only reads"
	}
	return ""
}

// r20ReadRules are the baseline reads of the r20 enterprise tools whose input the catalogue
// cannot see: MQSC fed to runmqsc, SQL and CLP commands given to db2.
func r20ReadRules() []*Rule {
	return []*Rule{
		{ID: "base.mq-display", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Displays IBM MQ objects through runmqsc",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				m := mqscReadOnly(s)
				return m, m != ""
			}},
		{ID: "base.db2-read", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Connects to a Db2 database outside production and reads from it",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := db2ReadOnly(c, s)
				return m, m != ""
			}},
	}
}
