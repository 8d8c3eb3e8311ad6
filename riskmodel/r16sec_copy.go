package riskmodel

import "strings"

// Stored data copied from a bucket named for production, customers or health records into a
// bucket named for sharing it outside: a partner's, a vendor's, an external or public one, a
// transfer drop. cloud.cross-account-copy judges a copy by whether the two buckets share a
// name; a company's own "acme-partner-share" shares "acme" with "acme-prod-customers" and is
// the way out all the same. docs/policy.md denies customer data sent to any host that is not
// the project's own. The copy verbs are those of the AWS CLI (s3 cp/sync/mv), gsutil and
// gcloud storage (cp/rsync/mv), az storage copy and azcopy (copy/sync), and rclone
// (copy/sync/move/copyto/moveto).

// r16OutsideWords are the words of a bucket name that say its data leaves the company.
var r16OutsideWords = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`partner partners external extern share shared sharing public transfer transfers vendor vendors
		thirdparty 3p outside outbound dropzone exchange collab collaboration offsite handoff`) {
		m[w] = true
	}
	return m
}}

// r16DataWords are words of a bucket name that say it holds regulated or customer data,
// next to dataLike's.
var r16DataWords = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`phi patient patients medical health healthcare claims hipaa payroll ssn pii emr ehr cardholder`) {
		m[w] = true
	}
	return m
}}

// bucketName returns the container part of a remote location (s3://b/k, gs://b, an Azure
// blob URL's account and container, rclone's remote:bucket/path), "" for a local path.
func bucketName(p string) string {
	switch {
	case strings.HasPrefix(p, "s3://"), strings.HasPrefix(p, "gs://"), strings.HasPrefix(p, "az://"), strings.HasPrefix(p, "r2://"):
		_, rest, _ := strings.Cut(p, "://")
		b, _, _ := strings.Cut(rest, "/")
		return b
	case strings.HasPrefix(p, "https://") && strings.Contains(p, ".blob.core.windows.net"), strings.HasPrefix(p, "https://") && strings.Contains(p, ".dfs.core.windows.net"):
		rest := strings.TrimPrefix(p, "https://")
		host, path, _ := strings.Cut(rest, "/")
		acct, _, _ := strings.Cut(host, ".")
		cont, _, _ := strings.Cut(path, "/")
		return acct + "/" + cont
	}
	if i := strings.IndexByte(p, ':'); i > 1 && !strings.Contains(p[:i], "/") {
		rest := p[i+1:]
		b, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		return p[:i] + ":" + b
	}
	return ""
}

func nameWords(n string) []string {
	return strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
}

// outsideBucket returns the word of a bucket name that says it is for outside, "". Azure
// account names have no separators (acmepartnershare), so a long word is also found inside
// one.
func outsideBucket(b string) string {
	for _, w := range nameWords(b) {
		if r16OutsideWords.get()[w] {
			return w
		}
		for o := range r16OutsideWords.get() {
			if len(o) >= 5 && len(w) > len(o) && strings.Contains(w, o) {
				return o
			}
		}
	}
	return ""
}

func regulatedBucket(b string) bool {
	if dataLike(b) {
		return true
	}
	for _, w := range nameWords(b) {
		if r16DataWords.get()[w] {
			return true
		}
		for _, d := range []string{"customer", "production", "patient", "medical", "payroll"} {
			if len(w) > len(d)+3 && (strings.HasPrefix(w, d) || strings.HasSuffix(w, d) || len(d) >= 7 && strings.Contains(w, d)) {
				return true
			}
		}
	}
	return false
}

// copyEnds returns a copy or export command's source and destination, ok false when it is
// not one; named reports an export whose source is a database's, table's or snapshot's name
// rather than a location.
func copyEnds(s *Segment) (src, dst string, named, ok bool) {
	var words []string
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			switch a {
			case "-s", "--source", "--source-uri":
				if i+1 < len(args) {
					src = args[i+1]
					i++
				}
			case "-d", "--destination", "--destination-uri":
				if i+1 < len(args) {
					dst = args[i+1]
					i++
				}
			case "--profile", "--region", "--exclude", "--include", "--storage-class", "--sse", "--acl", "--account-name",
				"--project", "--config", "--transfers", "--sas-token", "--destination-account-name", "--source-account-name":
				i++
			}
			continue
		}
		words = append(words, a)
	}
	switch s.Name() {
	case "aws":
		if len(words) >= 4 && words[0] == "s3" && (words[1] == "cp" || words[1] == "sync" || words[1] == "mv") {
			return words[2], words[3], false, true
		}
		// Exports of a database snapshot or a table into a bucket: the bucket is named by an
		// option, the source by its ARN's last part.
		if len(words) >= 2 && (words[0] == "rds" && words[1] == "start-export-task" || words[0] == "dynamodb" && words[1] == "export-table-to-point-in-time") {
			from, _ := optValue(s.Args[1:], "--source-arn", "--table-arn")
			to, _ := optValue(s.Args[1:], "--s3-bucket-name", "--s3-bucket")
			if from != "" && to != "" {
				return arnName(from), "s3://" + to, true, true
			}
		}
	case "bq":
		if len(words) >= 3 && words[0] == "extract" { // bq extract [flags] TABLE URI
			return words[len(words)-2], words[len(words)-1], true, true
		}
	case "gsutil", "gcloud":
		if len(words) >= 5 && words[0] == "sql" && words[1] == "export" { // gcloud sql export sql|csv|bak INSTANCE URI
			return words[3], words[4], true, true
		}
		if len(words) > 0 && words[0] == "storage" {
			words = words[1:]
		}
		if len(words) >= 3 && (words[0] == "cp" || words[0] == "rsync" || words[0] == "mv") {
			return words[len(words)-2], words[len(words)-1], false, true
		}
	case "az":
		if len(words) >= 2 && words[0] == "storage" && (words[1] == "copy" || words[1] == "blob" && len(words) > 2 && words[2] == "copy") && src != "" && dst != "" {
			return src, dst, false, true
		}
	case "azcopy":
		if len(words) >= 3 && (words[0] == "copy" || words[0] == "cp" || words[0] == "sync") {
			return words[1], words[2], false, true
		}
	case "rclone":
		if len(words) >= 3 {
			switch words[0] {
			case "copy", "sync", "move", "copyto", "moveto":
				return words[1], words[2], false, true
			}
		}
	}
	return "", "", false, false
}

// arnName is the last part of an ARN (arn:aws:rds:…:snapshot:NAME, …:table/NAME).
func arnName(arn string) string {
	if i := strings.LastIndexAny(arn, ":/"); i >= 0 {
		return arn[i+1:]
	}
	return arn
}

// sourceName is a copy source's container name: a bucket's, or a database instance's,
// dataset's or snapshot's own name when it is not a location.
func sourceName(src string) string {
	if b := bucketName(src); b != "" {
		return b
	}
	if !strings.Contains(src, "/") && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "~") {
		return src
	}
	return ""
}

// regulatedToOutside says why a copy sends production, customer or health data to a bucket
// named for outside use, "" when it does not.
func regulatedToOutside(s *Segment) string {
	src, dst, named, ok := copyEnds(s)
	if !ok {
		return ""
	}
	sb, db := bucketName(src), bucketName(dst)
	if sb == "" && named {
		sb = sourceName(src)
	}
	if sb == "" || db == "" || !regulatedBucket(sb) || outsideBucket(sb) != "" {
		return ""
	}
	w := outsideBucket(db)
	if w == "" {
		return ""
	}
	return "Copies or exports " + capText(src) + " (production, customer or health data) to " + capText(dst) + ", a bucket named for sharing outside (" + w + ")"
}
