package riskmodel

import (
	"strconv"
	"strings"
)

// A signed URL is a link anyone who holds it can use to read the object: for production,
// customer or health data kept for a day or more it is the data published, as a public share
// is (docs/policy.md: customer data sent where it is not the project's own). The signing
// commands and their lifetimes: aws s3 presign --expires-in SECONDS (default 3600),
// gsutil signurl -d DURATION (default 1h), gcloud storage sign-url --duration, az storage
// blob/container generate-sas --expiry (a date: any lifetime), and MCP tools named for
// presigned or signed URLs or SAS tokens with an expires_in/expiry/duration argument.

// r16LongLink is the lifetime from which a signed link to regulated data is a publication.
const r16LongLink = 24 * 3600

// durationSeconds parses a lifetime: seconds, or a number with s/m/h/d suffix; -1 if unknown.
func durationSeconds(v string) int {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return -1
	}
	mult := 1
	switch v[len(v)-1] {
	case 's':
		v = v[:len(v)-1]
	case 'm':
		mult, v = 60, v[:len(v)-1]
	case 'h':
		mult, v = 3600, v[:len(v)-1]
	case 'd':
		mult, v = 86400, v[:len(v)-1]
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return -1
	}
	return n * mult
}

// signedLinkOut says why a signing command publishes regulated data, "" when it does not.
func signedLinkOut(s *Segment) string {
	words := cloudCommandWords(s)
	var target string
	life := -1
	switch {
	case s.Name() == "aws" && len(words) >= 3 && words[0] == "s3" && words[1] == "presign":
		target, life = words[2], 3600
		if v, ok := optValue(s.Args[1:], "--expires-in"); ok {
			life = durationSeconds(v)
		}
	case s.Name() == "gsutil" && len(words) >= 1 && words[0] == "signurl" && len(s.Args) > 2:
		target, life = s.Args[len(s.Args)-1], 3600
		if v, ok := optValue(s.Args[1:], "-d"); ok {
			life = durationSeconds(v)
		}
	case s.Name() == "gcloud" && len(words) >= 3 && words[0] == "storage" && words[1] == "sign-url":
		target, life = words[2], 3600
		if v, ok := optValue(s.Args[1:], "--duration", "-d"); ok {
			life = durationSeconds(v)
		}
	case s.Name() == "az" && len(words) >= 3 && words[0] == "storage" && (words[1] == "blob" || words[1] == "container") && words[2] == "generate-sas":
		acct, _ := optValue(s.Args[1:], "--account-name")
		cont, _ := optValue(s.Args[1:], "--container-name", "-c")
		if words[1] == "container" {
			cont, _ = optValue(s.Args[1:], "--name", "-n")
		}
		target, life = acct+"/"+cont, r16LongLink // an expiry date: the lifetime is not known here
		if _, ok := optValue(s.Args[1:], "--expiry"); !ok {
			return ""
		}
	default:
		return ""
	}
	b := bucketName(target)
	if b == "" {
		b = target
	}
	if life < r16LongLink || !regulatedBucket(b) {
		return ""
	}
	return "Makes a link to " + capText(target) + " (production, customer or health data) that anyone holding it can read for " + lifeText(life)
}

func lifeText(sec int) string {
	if sec%86400 == 0 {
		return strconv.Itoa(sec/86400) + " day(s) or more"
	}
	return strconv.Itoa(sec/3600) + " hour(s)"
}

// mcpSignedLinkOut is signedLinkOut for an MCP tool that signs a URL.
func mcpSignedLinkOut(c *mcpCtx) string {
	if !mcpAnyWord(c.toolWords, mcpWordSet("presign presigned presignedurl signed signurl sas")) {
		return ""
	}
	life, bucket := -1, ""
	for _, a := range c.args {
		if a.depth > 2 {
			continue
		}
		switch a.nkey {
		case "expiresin", "expires", "expiration", "expiry", "duration", "ttl", "expiresinseconds", "expirationseconds":
			life = durationSeconds(a.val)
		case "bucket", "bucketname", "container", "containername", "uri", "url", "path":
			if b := bucketName(a.val); b != "" {
				bucket = b
			} else if a.nkey == "bucket" || a.nkey == "bucketname" || a.nkey == "container" || a.nkey == "containername" {
				bucket = a.val
			}
		}
	}
	if bucket == "" || life < r16LongLink || !regulatedBucket(bucket) {
		return ""
	}
	return "it makes a link to " + mcpCleanText(bucket, 60) + " (production, customer or health data) that anyone holding it can read for " + lifeText(life)
}
