package riskmodel

import (
	"slices"
	"strings"
)

// Files an ordinary tool reads or writes because an option says so, not because the file is
// an operand: iconv -o FILE, strace -o FILE, screen -Logfile FILE, tcpdump -w FILE, nmap -oG
// FILE, script FILE; dd if=FILE, xargs -a FILE, wget -i FILE, a file:// URL. GTFOBins lists
// these as the "file-write" and "file-read" functions of each binary
// (github.com/GTFOBins/GTFOBins.github.io, _gtfobins/NAME, commit 7382261e of 2026-04-20):
// a reading tool pointed at ~/.bashrc writes a startup file as surely as `tee ~/.bashrc`, and
// one pointed at ~/.ssh/id_rsa reads the key as surely as `cat`. The tables below give those
// paths to the file and credential rules, which judge them as they judge cp's destination and
// cat's operand; nothing here decides a level.

// toolWriteOpts are, per tool, the options whose value is a file the tool writes. An option
// matches as `-o FILE`, `-o=FILE` and, for one-dash options of two or more letters
// (nmap -oG), `-oGFILE`.
var toolWriteOpts = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"iconv":   {"-o", "--output"},                                                            // GTFOBins iconv; iconv(1)
		"shuf":    {"-o", "--output"},                                                            // GTFOBins shuf; shuf(1)
		"strace":  {"-o", "--output"},                                                            // GTFOBins strace; strace(1)
		"ltrace":  {"-o", "--output"},                                                            // GTFOBins ltrace; ltrace(1)
		"rlwrap":  {"-l", "--logfile"},                                                           // GTFOBins rlwrap; rlwrap(1)
		"screen":  {"-Logfile"},                                                                  // GTFOBins screen; screen(1) -Logfile
		"tcpdump": {"-w"},                                                                        // GTFOBins tcpdump; tcpdump(8) -w
		"nmap":    {"-oN", "-oX", "-oS", "-oG", "-oA"},                                           // GTFOBins nmap; nmap(1) OUTPUT
		"gtester": {"-o"},                                                                        // GTFOBins gtester
		"script":  {"-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing"}, // script(1)
		"wget":    {"-o", "--output-file", "-a", "--append-output"},                              // wget(1) logging options
	}
}}

// toolReadOpts are, per tool, the options whose value is a file the tool reads and whose
// contents it prints or sends on.
var toolReadOpts = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"xargs":     {"-a", "--arg-file"},    // GTFOBins xargs; xargs(1)
		"wget":      {"-i", "--input-file"},  // GTFOBins wget; wget(1)
		"ltrace":    {"-F", "--config"},      // GTFOBins ltrace
		"nmap":      {"-iL"},                 // GTFOBins nmap; nmap(1) TARGET SPECIFICATION
		"tmux":      {"-f"},                  // GTFOBins tmux
		"msgfilter": {"-i", "--input"},       // GTFOBins msgfilter
		"msgcat":    {"-f", "--files-from"},  // GTFOBins msgcat
		"ssh":       {"-F"},                  // GTFOBins ssh (the config file's lines are echoed in its errors)
		"aria2c":    {"-i", "--input-file"},  // GTFOBins aria2c
		"sqlite3":   {"-init"},               // sqlite3(1)
		"mysql":     {"--init-command-file"}, // mysql(1)
	}
}}

// toolOptionValues returns the values of the options opts names in args.
func toolOptionValues(args []string, opts []string) []string {
	var out []string
	for i, a := range args {
		for _, o := range opts {
			switch {
			case a == o:
				if i+1 < len(args) {
					out = append(out, args[i+1])
				}
			case strings.HasPrefix(a, o+"="):
				out = append(out, a[len(o)+1:])
			case !strings.HasPrefix(o, "--") && len(o) >= 2 && strings.HasPrefix(a, o) && len(a) > len(o):
				out = append(out, a[len(o):]) // a single-dash option's attached value: -oREADME.pdf, nmap -oGFILE
			}
		}
	}
	return out
}

// toolOptionWrites returns the files a segment's tool writes through its options (and the
// typescript operand of script(1), the file written by find -fprint*, sed's w command and
// xxd -r's second operand, which toolEscape also reads).
func toolOptionWrites(s *Segment) []string {
	if len(s.Args) < 2 {
		return nil
	}
	out := toolOptionValues(s.Args[1:], toolWriteOpts.get()[s.Name()])
	switch s.Name() {
	case "script":
		if p := s.positional(0, "-c", "--command", "-E", "--echo", "-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format"); len(p) > 0 {
			out = append(out, p[len(p)-1])
		}
	case "find":
		for i, a := range s.Args[1:] {
			if (a == "-fprint" || a == "-fprint0" || a == "-fls" || a == "-fprintf") && i+2 < len(s.Args) {
				out = append(out, s.Args[i+2])
			}
		}
	case "sed", "gsed":
		for _, sc := range sedScripts(s.Args[1:]) {
			_, w := sedEffects(sc)
			out = append(out, w...)
		}
	case "xxd":
		if s.hasFlag("r", "-revert") {
			if p := s.positional(0, "-c", "-g", "-l", "-s", "-o", "-n", "-C"); len(p) == 2 {
				out = append(out, p[1])
			}
		}
	case "gdb":
		// gdb -ex 'dump [binary|ihex|srec|tekhex|verilog] value|memory FILE …' (GDB manual,
		// "Copy Between Memory and a File").
		for _, v := range toolOptionValues(s.Args[1:], []string{"-ex", "--eval-command"}) {
			f := strings.Fields(v)
			if len(f) < 3 || f[0] != "dump" && f[0] != "append" {
				continue
			}
			f = f[1:]
			if f[0] == "binary" || f[0] == "ihex" || f[0] == "srec" || f[0] == "tekhex" || f[0] == "verilog" {
				f = f[1:]
			}
			if len(f) >= 2 && (f[0] == "value" || f[0] == "memory") {
				out = append(out, strings.Trim(f[1], `"'`))
			}
		}
	case "make", "gmake":
		// make --eval='$(file >FILE,TEXT)' (GNU make manual, "The file Function").
		for _, v := range toolOptionValues(s.Args[1:], []string{"--eval"}) {
			for rest := v; ; {
				i := strings.Index(rest, "$(file ")
				if i < 0 {
					break
				}
				rest = strings.TrimLeft(rest[i+len("$(file "):], " ")
				if strings.HasPrefix(rest, ">") {
					f := strings.TrimLeft(rest, "> ")
					if j := strings.IndexAny(f, ",)"); j > 0 {
						out = append(out, strings.TrimSpace(f[:j]))
					}
				}
			}
		}
	case "docker", "podman", "nerdctl":
		// docker cp CONTAINER:SRC DEST copies out of a container onto this machine (GTFOBins
		// docker file-write).
		if p := s.positional(0); len(p) == 3 && p[0] == "cp" && !strings.Contains(p[2], ":") {
			out = append(out, p[2])
		}
	case "tar", "bsdtar":
		// tar Pxf A.tar --xform 's@.*@/abs/path@': with -P (absolute names kept) the rename
		// puts the member at that absolute path (GTFOBins tar file-write).
		if s.hasFlag("P", "--absolute-names") || len(s.Args) > 1 && !strings.HasPrefix(s.Args[1], "-") && strings.Contains(s.Args[1], "P") {
			for _, v := range toolOptionValues(s.Args[1:], []string{"--xform", "--transform"}) {
				if len(v) > 3 && v[0] == 's' {
					d := string(v[1])
					if f := strings.Split(v[2:], d); len(f) >= 2 && strings.HasPrefix(f[1], "/") {
						out = append(out, f[1])
					}
				}
			}
		}
	case "socat":
		// socat's file-opening addresses: OPEN:path,creat / CREATE:path / GOPEN:path write
		// when they are the second address of -u.
		if p := s.positional(0, "-d", "-D", "-L", "-W", "-T", "-t", "-b", "-lf", "-lp"); len(p) == 2 && s.hasFlag("u") {
			if f := socatFile(p[1]); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// toolOptionReads returns the files a segment's tool reads through its options or through
// file addresses (dd if=, socat FILE:, a file:// URL given to a URL client).
func toolOptionReads(s *Segment) []string {
	if len(s.Args) < 2 {
		return nil
	}
	out := toolOptionValues(s.Args[1:], toolReadOpts.get()[s.Name()])
	if s.Name() == "git" && s.sub(0, gitGlobalOpts()...) == "diff" {
		// git diff --no-index A B, or git diff /dev/null FILE, prints files that need not be
		// in the repository (GTFOBins git file-read).
		p := s.positional(0, gitGlobalOpts()...)
		if s.arg("--no-index") || slices.Contains(p, "/dev/null") {
			for _, f := range p[1:] {
				if f != "/dev/null" {
					out = append(out, f)
				}
			}
		}
	}
	for _, a := range s.Args[1:] {
		switch {
		case s.Name() == "dd" && strings.HasPrefix(a, "if="):
			out = append(out, a[3:])
		case s.Name() == "socat":
			if f := socatFile(a); f != "" {
				out = append(out, f)
			}
		default:
			if f := fileURLPath(a); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// fileURLPath is the local path of a file: URL anywhere in an argument (curl file:///etc/x,
// aws --filters file://~/.aws/credentials, --opt=file:///p), "" when there is none.
func fileURLPath(a string) string {
	i := strings.Index(strings.ToLower(a), "file://")
	if i < 0 {
		return ""
	}
	p := a[i+len("file://"):]
	if strings.HasPrefix(p, "localhost/") {
		p = p[len("localhost"):]
	}
	if p == "" || strings.ContainsAny(p[:1], "?#") {
		return ""
	}
	return p
}

// socatFile is the path of a socat address that opens a file (FILE:, OPEN:, GOPEN:, CREATE:),
// its options after the first comma dropped; "" for any other address (socat(1) ADDRESS TYPES).
func socatFile(addr string) string {
	kind, rest, ok := strings.Cut(addr, ":")
	if !ok {
		return ""
	}
	switch strings.ToLower(kind) {
	case "file", "open", "gopen", "create", "creat":
		p, _, _ := strings.Cut(rest, ",")
		return p
	}
	return ""
}

// toolFileRedirs are a wrapper's own file options (strace -o FILE, screen -Logfile FILE,
// xargs -a FILE) as redirections of the command it runs, so that the file rules still see
// them once the wrapper is unwrapped: a write as ">>", a read as "<".
func toolFileRedirs(s *Segment) []Redirect {
	var out []Redirect
	for _, f := range toolOptionWrites(s) {
		out = append(out, Redirect{Op: ">>", Target: f})
	}
	for _, f := range toolOptionReads(s) {
		out = append(out, Redirect{Op: "<", Target: f})
	}
	return out
}

// stdinFileList returns the file names an archiver reads on stdin and then reads the files of
// (cpio -o and -p; tar -T -; zip -@), when what is piped in is known (echo ~/.aws/credentials
// | cpio -o: GTFOBins cpio file-read).
func stdinFileList(c *execCtx, s *Segment) []string {
	if s.PipeIn == nil {
		return nil
	}
	switch {
	case s.Name() == "cpio" && s.hasFlag("op", "--create", "--pass-through"),
		(s.Name() == "tar" || s.Name() == "bsdtar") && (slices.Contains(toolOptionValues(s.Args[1:], []string{"-T", "--files-from"}), "-")),
		s.Name() == "zip" && s.arg("-@"):
	default:
		return nil
	}
	out, ok, _ := segmentOutput(s.PipeIn, c.scope)
	if !ok {
		return nil
	}
	f := strings.Fields(out)
	if len(f) > 64 {
		f = f[:64]
	}
	return f
}

// libraryLoadFiles are shared libraries a command loads into itself, so that a library this
// request downloaded and then loads runs as surely as sh x.sh: GTFOBins' library-load
// function — curl --engine, openssl -engine, ssh-keygen -D, ssh-add -s, bash's enable -f,
// and an interpreter's own loader in inline code (Python ctypes, Ruby Fiddle, Node
// process.dlopen, LuaJIT ffi.load).
func libraryLoadFiles(s *Segment) []string {
	if len(s.Args) < 2 {
		return nil
	}
	var opts []string
	switch s.Name() {
	case "curl":
		opts = []string{"--engine"}
	case "openssl":
		opts = []string{"-engine", "--engine"}
	case "ssh-keygen":
		opts = []string{"-D"}
	case "ssh-add":
		opts = []string{"-s", "-e"}
	case "enable":
		opts = []string{"-f"}
	}
	out := toolOptionValues(s.Args[1:], opts)
	if s.Code {
		for _, a := range s.Args[1:] {
			out = append(out, libraryLoadLiterals(a)...)
		}
	}
	return out
}

// libraryLoadLiterals returns the string literals given first to a library loader in code:
// the calls of interpreters' foreign-function loaders whose first argument is a library path.
func libraryLoadLiterals(code string) []string {
	var out []string
	for _, call := range [...]string{"LoadLibrary(", "CDLL(", "cdll(", "PyDLL(", "WinDLL(", "dlopen(", "ffi.load(", "DynaLoader::dl_load_file("} {
		for rest := code; ; {
			i := strings.Index(rest, call)
			if i < 0 {
				break
			}
			rest = strings.TrimLeft(rest[i+len(call):], " ")
			if rest == "" || !strings.ContainsRune(`"'`, rune(rest[0])) {
				continue
			}
			if j := strings.IndexByte(rest[1:], rest[0]); j > 0 {
				out = append(out, rest[1:1+j])
			}
		}
	}
	return out
}

// socatNetAddr reports a socat address list with a network address (socat(1) ADDRESS TYPES:
// TCP*, UDP*, SCTP*, OPENSSL*, SSL, SOCKS*, PROXY*, IP*, VSOCK*, DCCP*, and an address whose
// type is only known at run time). UNIX sockets, files, pipes, PTYs and stdio are local.
func socatNetAddr(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "$") {
			return true
		}
		for _, p := range [...]string{"tcp", "udp", "sctp", "openssl", "ssl:", "ssl-l", "socks", "proxy", "ip4", "ip6", "ip-", "ip:", "vsock", "dccp", "udplite", "interface:"} {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
	}
	return false
}
