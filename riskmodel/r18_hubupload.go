package riskmodel

import "strings"

// Uploads to public model and data hubs: `huggingface-cli upload REPO PATH`, `hf upload`,
// `hf upload-large-folder`, `kaggle datasets create|version -p PATH` publish what they are
// given to a hub other people read (Hugging Face CLI guide; Kaggle API README). A model's
// weights or a library's docs are a publish the user should confirm (ask, as a package
// publish is); a repository or a local path named for customers, tickets, patients, contacts,
// exports or dumps is people's data handed to an outside host (deny).

// hubDataWords name people's data in a repository id or a local path.
var hubDataWords = wordSet{words: `customer customers client clients ticket tickets support patient patients pii phi crm
	contact contacts email emails export exports dump dumps transactions orders accounts members leads users
	subscribers employees payroll claims`}

// hubUpload returns what a hub upload publishes and whether its names say it is people's
// data; ok is false when the segment is no hub upload.
func hubUpload(s *Segment) (what string, data, ok bool) {
	var names []string
	switch s.Name() {
	case "huggingface-cli", "hf":
		if sub := s.sub(0); sub != "upload" && sub != "upload-large-folder" {
			return "", false, false
		}
		names = s.positional(1, "--repo-type", "--revision", "--include", "--exclude", "--commit-message",
			"--commit-description", "--token", "--path-in-repo", "--every")
	case "kaggle":
		if g := s.sub(0); g != "datasets" && g != "d" {
			return "", false, false
		}
		if v := s.sub(1); v != "create" && v != "version" {
			return "", false, false
		}
		if p, ok := optValue(s.Args[1:], "-p", "--path"); ok {
			names = append(names, p)
		} else {
			names = append(names, ".")
		}
	default:
		return "", false, false
	}
	for _, n := range names {
		for _, w := range strings.FieldsFunc(strings.ToLower(n), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) {
			if hubDataWords.has(w) {
				return strings.Join(names, " "), true, true
			}
		}
	}
	return strings.Join(names, " "), false, true
}

func r18HubUploadRules() []*Rule {
	return []*Rule{
		{
			ID: "net.hub-data-upload", Level: Critical, Category: CatDataExfiltration, Certain: true,
			Message: "Publishes people's data (customers, tickets, patients, contacts, exports) to a public model or data hub",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if what, data, ok := hubUpload(s); ok && data {
					return "Runs " + s.Name() + " to publish " + capText(what) + ": people's data handed to a hub outside the company", true
				}
				return "", false
			},
		},
		{
			ID: "net.hub-upload", Level: Medium, Category: CatNetworkEgress,
			Message: "Publishes files to a public model or data hub",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if what, data, ok := hubUpload(s); ok && !data {
					return "Runs " + s.Name() + " to publish " + capText(what) + " to a hub other people read", true
				}
				return "", false
			},
		},
	}
}
