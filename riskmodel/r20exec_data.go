package riskmodel

import (
	"path"
	"regexp"
	"strings"
)

// Two deny-list effects spelled as ordinary file work:
//
//   - shred, srm or wipe of a data file about people (participants, patients, customers,
//     employees, genotypes, health records) destroys data that cannot be regenerated, by
//     design beyond recovery: docs/policy.md's "destruction … of data the user never
//     mentioned". rm of the same file keeps its question (fs.rm.workspace): an ordinary
//     deletion may be a cleanup the user asked for, and a copy may be in version control.
//   - a Jupyter server configuration written with the server opened to every interface and
//     its token or password emptied (c.ServerApp.ip = '0.0.0.0' with c.ServerApp.token = '')
//     is an unauthenticated code-execution service on the network: a disabled security
//     control and an exposed local service, denied. Jupyter's docs: "Running a public
//     notebook server" (ip, token, password, allow_remote_access, disable_check_xsrf).

// peopleDataWords name data about people in a file or directory name.
var peopleDataWords = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^a-z])(?:participants?|patients?|customers?|clients?|members?|employees?|staff|students?|donors?|respondents?|subjects?|persons?|people|users|cohort|ehr|emr|phi|pii|genotypes?|genomes?|medical|clinical|health|payroll|hr|ssn|census|claims?|encounters?|sourcedata)(?:$|[^a-z])`)
}}

// dataFileExt are extensions of data files (tables, databases, scientific formats).
var dataFileExt = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`.csv .tsv .xlsx .xls .ods .parquet .feather .arrow .json .jsonl .ndjson .sav .dta .sas7bdat .rds .rdata
		.db .sqlite .sqlite3 .h5 .hdf5 .nc .vcf .bcf .bam .cram .fastq .gz .bz2 .xz .zip .dcm .nii .edf .bdf .xml .sql .dump .bak .txt .dat`) {
		m[e] = true
	}
	return m
}}

// secureErasers overwrite a file before removing it.
var secureErasers = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"shred": true, "srm": true, "wipe": true, "gshred": true}
}}

// jupyterConfigName matches Jupyter's server and notebook configuration files.
var jupyterConfigName = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^jupyter_(?:server|notebook|lab)_config\.(?:py|json)$`)
}}

// jupyterOpenIP and jupyterCfgNoAuth are the settings that open the server and drop its login.
var (
	jupyterOpenIP = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:ServerApp|NotebookApp)\.ip\s*=\s*['"](?:0\.0\.0\.0|\*|::|)['"]|"ip"\s*:\s*"(?:0\.0\.0\.0|\*|::)"`)
	}}
	jupyterCfgNoAuth = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:ServerApp|NotebookApp|IdentityProvider|PasswordIdentityProvider)\.(?:token|password)\s*=\s*(?:u?['"]['"])|"(?:token|password)"\s*:\s*""|disable_check_xsrf\s*=\s*True|password_required\s*=\s*False`)
	}}
)

func r20DataRules() []*Rule {
	return []*Rule{
		{
			ID: "fs.shred-people-data", Level: High, Category: CatDataDeletion, Certain: true,
			Message: "Overwrites and deletes a data file about people beyond recovery",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !secureErasers.get()[s.Name()] {
					return "", false
				}
				for _, f := range s.positional(0, "-n", "--iterations", "-s", "--size", "--random-source", "--remove") {
					ext := strings.ToLower(path.Ext(f))
					if !dataFileExt.get()[ext] {
						continue
					}
					if peopleDataWords.get().MatchString(strings.TrimSuffix(f, path.Ext(f))) {
						return "Shreds " + f + ", data about people that cannot be regenerated", true
					}
				}
				return "", false
			},
		},
		{
			ID: "net.jupyter-open-config", Level: High, Category: CatSecurityWeakening, Certain: true,
			Message: "Writes a Jupyter configuration that serves every interface without a token or password",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				written := false
				for _, t := range writeTargets(c, s) {
					if jupyterConfigName.get().MatchString(path.Base(orStr(t.abs, t.arg))) {
						written = true
					}
				}
				if !written {
					return "", false
				}
				out, ok, _ := segmentOutput(s, c.scope)
				if !ok {
					out = s.Stdin
				}
				out = strings.ReplaceAll(out, `\n`, "\n")
				if jupyterOpenIP.get().MatchString(out) && jupyterCfgNoAuth.get().MatchString(out) {
					return "Configures Jupyter to listen on every interface with no token or password: code execution for anyone who can reach it", true
				}
				return "", false
			},
		},
	}
}
