package riskmodel

import "strings"

// A code-execution server (Jupyter, code-server) answering on every interface with its
// authentication switched off hands a shell on this machine to anyone who can reach the
// port. Jupyter Server's --ServerApp.token= (and classic --NotebookApp.token=, Jupyter
// Server 2's --IdentityProvider.token=) with an empty value and no password disables auth;
// code-server's --auth none does the same. Loopback binds, and a token or password left on,
// stay as the other rules judge them.

// allInterfaces reports whether a bind address listens on every interface.
func allInterfaces(addr string) bool {
	h := addr
	if i := strings.LastIndexByte(addr, ':'); i > 0 && !strings.HasSuffix(addr, "::") {
		h = addr[:i]
	}
	h = strings.Trim(h, "[]")
	return h == "0.0.0.0" || h == "*" || h == "::" || h == ""
}

// jupyterNoAuth says why a Jupyter server runs on all interfaces with no token and no
// password, "" if not.
func jupyterNoAuth(s *Segment) string {
	n := s.Name()
	switch {
	case n == "jupyter":
		if w := s.sub(0); w != "lab" && w != "notebook" && w != "server" {
			return ""
		}
	case n != "jupyter-lab" && n != "jupyter-notebook" && n != "jupyter-server":
		return ""
	}
	var ip string
	tokenOff, password := false, false
	args := s.Args[1:]
	for i, a := range args {
		opt, val, hasVal := strings.Cut(a, "=")
		if !hasVal && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			val = args[i+1]
		}
		opt = strings.TrimLeft(opt, "-")
		switch {
		case opt == "ip" || strings.HasSuffix(opt, "App.ip"):
			ip = val
		case strings.HasSuffix(opt, ".token") && hasVal:
			tokenOff = strings.Trim(val, `'"`) == ""
		case strings.HasSuffix(opt, ".password") && hasVal && strings.Trim(val, `'"`) != "":
			password = true
		}
	}
	if ip == "" || !allInterfaces(ip) || !tokenOff || password {
		return ""
	}
	return "Runs " + n + " on all interfaces (" + ip + ") with its token empty and no password: anyone who reaches the port runs code on this machine"
}

// codeServerNoAuth says why code-server runs on all interfaces with --auth none, "" if not.
func codeServerNoAuth(s *Segment) string {
	if s.Name() != "code-server" && s.Name() != "openvscode-server" {
		return ""
	}
	auth, _ := optValue(s.Args[1:], "--auth")
	bind, ok := optValue(s.Args[1:], "--bind-addr")
	if !ok {
		bind, ok = optValue(s.Args[1:], "--host")
	}
	noAuth := auth == "none" || s.Name() == "openvscode-server" && s.arg("--without-connection-token")
	if !noAuth || !ok || !allInterfaces(bind) {
		return ""
	}
	return "Runs " + s.Name() + " with no authentication on all interfaces (" + bind + "): anyone who reaches the port gets an editor and a terminal on this machine"
}
