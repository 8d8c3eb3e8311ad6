package riskmodel

import (
	"path"
	"regexp"
	"strings"
)

// Customer data or database dumps copied to a bucket named as not the project's. A users,
// customers or patients export, or a pg_dump of the database, copied with aws s3 cp/sync,
// gsutil cp, az storage blob upload or rclone copy to a bucket whose name says public,
// share, tmp, external, transfer or drop (the bucket words of mcp_r10_export.go) leaves the
// project's control: docs/policy.md "sending … customer data … to any host that is not the
// project's own" (MITRE ATT&CK T1567.002, Exfiltration to Cloud Storage; T1530).

type r14UploadReexps struct {
	// people is a file named for people or their records with a data-file ending.
	people *regexp.Regexp
	// peopleDir is a directory named for people's records.
	peopleDir *regexp.Regexp
	// dump is a database dump file.
	dump *regexp.Regexp
}

var r14UploadRe = table[r14UploadReexps]{build: func() r14UploadReexps {
	return r14UploadReexps{
		people:    regexp.MustCompile(`(?i)(?:^|[^a-z])(?:users?|customers?|patients?|accounts?|orders?|members?|clients?|subscribers?|employees?|contacts?|pii)(?:[^a-z.][^/]*)?\.(?:csv|tsv|sql|dump|parquet|jsonl?|xlsx?|ndjson|avro)(?:\.(?:gz|zst|bz2|xz|zip))?$`),
		peopleDir: regexp.MustCompile(`(?i)^(?:users|customers|patients|accounts|orders|members|clients|subscribers|employees|contacts|pii)$`),
		dump:      regexp.MustCompile(`(?i)(?:dump|prod|production|db|database)[^/]*\.(?:sql|dump|pgdump|bak)(?:\.(?:gz|zst|bz2|xz|zip))?$|\.(?:pgdump|dump)(?:\.(?:gz|zst))?$`),
	}
}}

// uploadValueOpts are the cloud copy options that take a value in the next word. A table
// built once: uploadEnds is asked about every segment of a request.
var uploadValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"--profile": true, "--region": true, "--exclude": true, "--include": true, "--acl": true,
		"--storage-class": true, "--endpoint-url": true, "-c": true, "--container-name": true, "-f": true, "--file": true,
		"-n": true, "--name": true, "--account-name": true, "--account-key": true, "--sas-token": true, "--connection-string": true,
		"-d": true, "--destination": true, "-s": true, "--source": true}
}}

// uploadEnds returns the sources and the bucket destination of a cloud copy.
func uploadEnds(s *Segment) (srcs []string, dst string) {
	var pos []string
	skip := uploadValueOpts.get()
	args := s.Args
	var sub []string
	switch s.Name() {
	case "aws":
		sub = []string{"s3"}
	case "gsutil", "rclone":
	case "gcloud":
		sub = []string{"storage"}
	case "az":
		sub = []string{"storage", "blob"}
	default:
		return nil, ""
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && a != "-" {
			if skip[a] && i+1 < len(args) {
				if s.Name() == "az" {
					switch a {
					case "-f", "--file", "-s", "--source":
						srcs = append(srcs, args[i+1])
					case "-c", "--container-name", "-d", "--destination":
						dst = "az://" + args[i+1]
					}
				}
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	for _, w := range sub {
		if len(pos) == 0 || pos[0] != w {
			return nil, ""
		}
		pos = pos[1:]
	}
	if len(pos) == 0 {
		return nil, ""
	}
	switch v := pos[0]; {
	case s.Name() == "az":
		if v != "upload" && v != "upload-batch" {
			return nil, ""
		}
		return srcs, dst
	case v == "cp" || v == "sync" || v == "mv" || v == "copy" || v == "copyto" || v == "move" || v == "rsync":
		pos = pos[1:]
	default:
		return nil, ""
	}
	if len(pos) < 2 {
		return nil, ""
	}
	return pos[:len(pos)-1], pos[len(pos)-1]
}

// bucketOf returns the bucket or remote name a destination names, "" for a local path.
func bucketOf(dst string) string {
	if i := strings.Index(dst, "://"); i > 0 {
		b := dst[i+3:]
		if j := strings.IndexByte(b, '/'); j >= 0 {
			b = b[:j]
		}
		return b
	}
	if i := strings.IndexByte(dst, ':'); i > 0 && !strings.Contains(dst[:i], "/") {
		return dst // rclone remote:bucket/path
	}
	return ""
}

// customerUpload says what customer data or dump a cloud copy sends to a foreign bucket.
func customerUpload(c *execCtx, s *Segment) (string, bool) {
	srcs, dst := uploadEnds(s)
	b := bucketOf(dst)
	if b == "" || len(srcs) == 0 || !r10ExportRe.get().r10ForeignBucketRe.MatchString(b) {
		return "", false
	}
	for _, src := range srcs {
		base := path.Base(src)
		what := ""
		switch {
		case src == "-" && s.PipeIn != nil && (s.PipeIn.Name() == "pg_dump" || s.PipeIn.Name() == "mysqldump" || s.PipeIn.Name() == "pg_dumpall" || s.PipeIn.Name() == "mongodump"):
			what = "the output of " + s.PipeIn.Name()
		case strings.HasSuffix(src, "/") && r14UploadRe.get().peopleDir.MatchString(base):
			what = src + ", a directory of customer data"
		case r14UploadRe.get().people.MatchString(base):
			what = base + ", customer data"
		case r14UploadRe.get().dump.MatchString(base):
			what = base + ", a database dump"
		}
		if what != "" {
			return "Copies " + what + " to " + b + ", a bucket named as public, shared, temporary or external: not the project's own", true
		}
	}
	return "", false
}

func r14UploadRules() []*Rule {
	return []*Rule{
		{
			ID: "net.customer-data-bucket", Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Copies customer data or a database dump to a bucket named as public, shared, temporary or external",
			exec:    customerUpload,
		},
	}
}
