package riskmodel

import (
	"net"
	"strings"
)

// personalAccount describes a destination its own name declares to be someone's personal
// account — an rclone remote, a cloud CLI profile or account, a bucket called "personal…" —
// "" otherwise. The user's configuration names it so; docs/policy.md denies sending the
// project's data to any place that is not the project's own.
func personalAccount(s *Segment, dest string) string {
	for _, v := range []string{dest, flagValue(s, "--profile"), flagValue(s, "--account"), flagValue(s, "--project")} {
		if v == "" {
			continue
		}
		name := v
		if i := strings.Index(name, "://"); i >= 0 {
			name = name[i+3:] // s3://personal-backup/x: the bucket
		}
		name, _, _ = strings.Cut(name, "/")
		name, _, _ = strings.Cut(name, ":") // an rclone remote: personal-gdrive:backup
		for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			if w == "personal" {
				return "the personal account " + v
			}
		}
	}
	return ""
}

func flagValue(s *Segment, name string) string {
	v, _ := optValue(s.Args[1:], name)
	return v
}

// chatWebhooks are the incoming-webhook endpoints of chat services: a URL that posts into
// some channel, anyone's, with no account of the project's behind it.
var chatWebhooks = []struct{ host, path string }{
	{"discord.com", "/api/webhooks/"}, {"discordapp.com", "/api/webhooks/"}, {"ptb.discord.com", "/api/webhooks/"},
	{"canary.discord.com", "/api/webhooks/"}, {"hooks.slack.com", "/"}, {"api.telegram.org", "/bot"},
	{"outlook.office.com", "/webhook/"}, {"chat.googleapis.com", "/v1/spaces/"},
}

// chatWebhook describes the chat webhook s posts to, "" if none.
func chatWebhook(s *Segment) string {
	for _, u := range urls(s) {
		h := strings.ToLower(u.Hostname())
		for _, w := range chatWebhooks {
			if h == w.host && strings.HasPrefix(u.Path, w.path) {
				return "a chat webhook (" + h + ")"
			}
		}
		if strings.HasSuffix(h, ".webhook.office.com") {
			return "a chat webhook (" + h + ")"
		}
	}
	return ""
}

// archivers pack files for transport; their output piped to a send is a copy of the files.
var archivers = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"zip": true, "tar": true, "7z": true, "7za": true, "gzip": true, "bzip2": true, "xz": true, "zstd": true, "cpio": true}
}}

// sendsArchive reports a send fed, through the pipe before it, by an archive of files (zip -r
// - src | base64 | curl -d @-) or by git archive / git bundle: source code leaving, not a
// message someone wrote.
func sendsArchive(s *Segment) bool {
	for p := s.PipeIn; p != nil; p = p.PipeIn {
		if archivers.get()[p.Name()] || p.Name() == "git" && (p.sub(0) == "archive" || p.sub(0) == "bundle") {
			return true
		}
	}
	return false
}

// tunnelServices accept an SSH remote forward from anyone and publish it on a public URL.
var tunnelServices = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"serveo.net": true, "localhost.run": true, "nokey@localhost.run": true, "a.pinggy.io": true,
		"pinggy.io": true, "ssh.localhost.run": true, "tunnel.us.ngrok.com": true, "connect.ngrok-agent.com": true, "srv.us": true, "tuns.sh": true}
}}

// publicRemoteForward describes an ssh -R that publishes a local port to the internet: to a
// tunnel service, or bound on every interface of the remote host (-R 0.0.0.0:2222:…, -R
// *:…, -R :2222:…), "" for a remote forward on the remote host's loopback or none at all.
func publicRemoteForward(s *Segment) string {
	p := s.positional(0, "-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-m", "-O", "-Q", "-S", "-w", "-B")
	host := ""
	if len(p) > 0 {
		host = strings.ToLower(p[0])
		if at := strings.LastIndexByte(host, '@'); at >= 0 && !tunnelServices.get()[host] {
			host = host[at+1:]
		}
	}
	args := s.Args[1:]
	for i, a := range args {
		var spec string
		switch {
		case a == "-R" && i+1 < len(args):
			spec = args[i+1]
		case strings.HasPrefix(a, "-R") && len(a) > 2:
			spec = a[2:]
		default:
			continue
		}
		if tunnelServices.get()[host] {
			return "Publishes local port " + spec + " on the internet through the tunnel service " + host
		}
		// [bind:]port:host:hostport; without a bind address the remote sshd listens on its
		// loopback only.
		f := strings.Split(spec, ":")
		if len(f) < 4 && (len(f) != 3 || isPort(f[0])) {
			continue
		}
		switch f[0] {
		case "", "*", "0.0.0.0", "::", "[::]":
			return "Opens local " + strings.Join(f[len(f)-2:], ":") + " to anyone who can reach " + host + " (remote forward bound to all interfaces: " + spec + ")"
		}
	}
	return ""
}

func isPort(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// portForwardAllInterfaces returns the --address of a kubectl port-forward that listens on
// an address other than loopback ("0.0.0.0", a LAN address), "" otherwise.
func portForwardAllInterfaces(s *Segment) string {
	if !containsArg(s.Args, "port-forward") {
		return ""
	}
	addr, ok := optValue(s.Args[1:], "--address")
	if !ok {
		return ""
	}
	for _, a := range strings.Split(addr, ",") {
		if ip := net.ParseIP(a); a != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return addr
		}
	}
	return ""
}
