package riskmodel

import (
	"strings"
)

// Interpreter code is judged by what it can do, recognised from the calls each language uses
// rather than from string literals alone: a delete, a network send or a process spawn whose
// argument is a variable is still a delete, a send or a spawn. The literal cases are followed
// into synthetic segments (inline.go); the capability scan here says what else the code does,
// which composites it forms (a socket plus a spawned shell is a reverse shell), and which
// risky calls were not followed, so the code is rated opaque (high) rather than trusted.

// codeCap is one thing inline code can do.
type codeCap uint32

const (
	capExec       codeCap = 1 << iota // starts a process or a shell
	capEval                           // evaluates code built at run time (eval, exec, iex, Function)
	capNet                            // makes an HTTP/URL request or a DNS lookup
	capSocket                         // opens a raw socket
	capDup                            // wires a descriptor to a socket/pty (dup2, pty.spawn, fdopen)
	capDelete                         // deletes files
	capRead                           // reads files
	capWrite                          // writes files
	capEnv                            // reads the environment
	capDecode                         // decodes an encoded blob (base64, hex, zlib, rot13)
	capFork                           // forks the process
	capLoop                           // loops without an exit
	capDynamic                        // loads or calls something named at run time (FFI, getattr, __import__)
	capEnvBulk                        // reads the whole environment
	capSecretName                     // names a secret-looking variable (TOKEN, SECRET, …)
	capMemBomb                        // allocates an enormous amount of memory
)

var capNames = []struct {
	c    codeCap
	name string
}{
	{capExec, "runs programs"}, {capEval, "evaluates code"}, {capNet, "uses the network"}, {capSocket, "opens sockets"},
	{capDup, "redirects descriptors"}, {capDelete, "deletes files"}, {capRead, "reads files"}, {capWrite, "writes files"},
	{capEnv, "reads the environment"}, {capDecode, "decodes data"}, {capFork, "forks"}, {capLoop, "loops forever"},
	{capDynamic, "calls things named at run time"},
}

// describe lists the capabilities in words.
func (c codeCap) describe() string {
	var out []string
	for _, n := range capNames {
		if c&n.c != 0 {
			out = append(out, n.name)
		}
	}
	return strings.Join(out, ", ")
}

// capStrong are capabilities that make code opaque when a call using them was not followed.
// Reads are weak: reading a file named on the command line is everyday scripting, and the
// data it reads goes nowhere unless another capability sends or runs it.
const capStrong = capExec | capEval | capNet | capSocket | capDup | capDelete | capWrite | capFork | capDynamic

// capEntry is how one identifier is recognised: the capability it grants, and whether it only
// counts when called (open(…) rather than a variable named open).
type capEntry struct {
	cap  codeCap
	call bool
}

// codeLangs names the token table of each language; names absent here use the common table
// only. langOf gives the key.
var codeLangs = table[map[string]map[string]capEntry]{build: func() map[string]map[string]capEntry {
	m := map[string]map[string]capEntry{
		"python": {
			"os.system": {capExec, false}, "os.popen": {capExec, false}, "subprocess": {capExec, false}, "Popen": {capExec, true},
			"check_output": {capExec, true}, "check_call": {capExec, true}, "getoutput": {capExec, true}, "getstatusoutput": {capExec, true},
			"subprocess.run": {capExec, true}, "subprocess.call": {capExec, true}, "os.execv": {capExec, true}, "os.execve": {capExec, true},
			"os.execl": {capExec, true}, "os.execlp": {capExec, true}, "os.execvp": {capExec, true}, "os.spawnl": {capExec, true}, "os.spawnv": {capExec, true},
			"exec": {capEval, true}, "eval": {capEval, true}, "compile": {capEval, true}, "__import__": {capDynamic, true},
			"importlib": {capDynamic, false}, "getattr": {capDynamic, true}, "ctypes": {capDynamic, false}, "cffi": {capDynamic, false},
			"marshal.loads": {capEval, true}, "pickle.loads": {capEval, true},
			"urlopen": {capNet, true}, "urlretrieve": {capNet, true}, "urllib": {capNet, false}, "requests": {capNet, false}, "httpx": {capNet, false},
			"http.client": {capNet, false}, "HTTPConnection": {capNet, true}, "HTTPSConnection": {capNet, true}, "aiohttp": {capNet, false},
			"gethostbyname": {capNet, true}, "getaddrinfo": {capNet, true}, "smtplib": {capNet, false}, "ftplib": {capNet, false},
			"socket.socket": {capSocket, true}, "create_connection": {capSocket, true}, "socket": {capSocket, false},
			"system": {capExec, true}, "popen": {capExec, true}, "os.dup2": {capDup, true}, "dup2": {capDup, true}, "pty.spawn": {capDup | capExec, true},
			"rmtree": {capDelete, true}, "os.remove": {capDelete, true}, "os.unlink": {capDelete, true}, "os.rmdir": {capDelete, true},
			"removedirs": {capDelete, true}, "unlink": {capDelete, true}, "rmdir": {capDelete, true}, "remove": {capDelete, true},
			"open": {capRead, true}, "read_text": {capRead, true}, "read_bytes": {capRead, true}, "write_text": {capWrite, true},
			"write_bytes": {capWrite, true}, "shutil.copy": {capWrite, true}, "shutil.copyfile": {capWrite, true}, "shutil.move": {capWrite, true},
			"os.rename": {capWrite, true}, "os.replace": {capWrite, true}, "os.symlink": {capWrite, true}, "os.chmod": {capWrite, true},
			"os.environ": {capEnv, false}, "environ": {capEnv, false}, "getenv": {capEnv, true},
			"b64decode": {capDecode, true}, "decodebytes": {capDecode, true}, "b32decode": {capDecode, true}, "a85decode": {capDecode, true},
			"unhexlify": {capDecode, true}, "fromhex": {capDecode, true}, "zlib.decompress": {capDecode, true}, "codecs.decode": {capDecode, true},
			"os.fork": {capFork, true}, "fork": {capFork, true}, "forkpty": {capFork | capDup, true}, "multiprocessing": {capFork, false},
		},
		"node": {
			"child_process": {capExec, false}, "execSync": {capExec, true}, "execFile": {capExec, true}, "execFileSync": {capExec, true},
			"spawn": {capExec, true}, "spawnSync": {capExec, true}, "exec": {capExec, true}, "eval": {capEval, true}, "Function": {capEval, true},
			"vm": {capEval, false}, "runInThisContext": {capEval, true}, "runInNewContext": {capEval, true}, "require": {capDynamic, true},
			"import": {capDynamic, true}, "process.binding": {capDynamic, true}, "process.dlopen": {capDynamic, true},
			"fetch": {capNet, true}, "http": {capNet, false}, "https": {capNet, false}, "http.request": {capNet, true}, "https.request": {capNet, true},
			"http.get": {capNet, true}, "https.get": {capNet, true}, "axios": {capNet, false}, "XMLHttpRequest": {capNet, true}, "dns": {capNet, false},
			"WebSocket": {capNet, true}, "Deno.connect": {capSocket, true}, "Bun.connect": {capSocket, true},
			"net": {capSocket, false}, "net.connect": {capSocket, true}, "net.createConnection": {capSocket, true}, "net.Socket": {capSocket, true},
			"tls.connect": {capSocket, true}, "dgram": {capSocket, false},
			"rmSync": {capDelete, true}, "rmdirSync": {capDelete, true}, "unlinkSync": {capDelete, true}, "fs.rm": {capDelete, true},
			"fs.rmdir": {capDelete, true}, "fs.unlink": {capDelete, true}, "Deno.remove": {capDelete, true}, "rimraf": {capDelete, false},
			"readFileSync": {capRead, true}, "readFile": {capRead, true}, "createReadStream": {capRead, true}, "Deno.readTextFile": {capRead, true},
			"writeFileSync": {capWrite, true}, "writeFile": {capWrite, true}, "appendFileSync": {capWrite, true}, "appendFile": {capWrite, true},
			"createWriteStream": {capWrite, true}, "copyFileSync": {capWrite, true}, "renameSync": {capWrite, true}, "symlinkSync": {capWrite, true},
			"chmodSync": {capWrite, true}, "Deno.writeTextFile": {capWrite, true},
			"process.env": {capEnv, false}, "Deno.env": {capEnv, false}, "Bun.env": {capEnv, false},
			"atob": {capDecode, true}, "base64": {capDecode, false}, "fromCharCode": {capDecode, true}, "unescape": {capDecode, true},
			"cluster.fork": {capFork, true}, "fork": {capFork, true},
			"setInterval": {capLoop, true},
		},
		"perl": {
			"system": {capExec, false}, "exec": {capExec, false}, "qx": {capExec, false}, "readpipe": {capExec, false}, "open3": {capExec, false},
			"IPC::Open3": {capExec, false}, "IPC::Open2": {capExec, false}, "eval": {capEval, false}, "do": {capEval, false},
			"LWP": {capNet, false}, "LWP::Simple": {capNet, false}, "LWP::UserAgent": {capNet, false}, "HTTP::Tiny": {capNet, false},
			"Net::HTTP": {capNet, false}, "getstore": {capNet, true}, "IO::Socket": {capSocket, false}, "IO::Socket::INET": {capSocket, false},
			"Socket": {capSocket, false}, "socket": {capSocket, false}, "connect": {capSocket, false}, "fdopen": {capDup, true},
			"unlink": {capDelete, false}, "rmtree": {capDelete, false}, "remove_tree": {capDelete, false}, "rmdir": {capDelete, false},
			"open": {capRead, false}, "ENV": {capEnv, false}, "decode_base64": {capDecode, true}, "MIME::Base64": {capDecode, false},
			"unpack": {capDecode, true}, "pack": {capDecode, true}, "fork": {capFork, false},
		},
		"ruby": {
			"system": {capExec, false}, "exec": {capExec, false}, "spawn": {capExec, false}, "IO.popen": {capExec, false}, "popen": {capExec, false},
			"Open3": {capExec, false}, "Process.spawn": {capExec, false}, "PTY.spawn": {capExec | capDup, false}, "eval": {capEval, false},
			"instance_eval": {capEval, false}, "class_eval": {capEval, false}, "send": {capDynamic, true}, "const_get": {capDynamic, true},
			"Net::HTTP": {capNet, false}, "URI.open": {capNet, false}, "open-uri": {capNet, false}, "Faraday": {capNet, false}, "HTTParty": {capNet, false},
			"TCPSocket": {capSocket, false}, "UDPSocket": {capSocket, false}, "Socket": {capSocket, false}, "TCPServer": {capSocket, false},
			"reopen": {capDup, true}, "FileUtils.rm_rf": {capDelete, false}, "FileUtils.rm_r": {capDelete, false}, "FileUtils.rm": {capDelete, false},
			"rm_rf": {capDelete, false}, "File.delete": {capDelete, false}, "File.unlink": {capDelete, false}, "Dir.delete": {capDelete, false},
			"FileUtils.remove_dir": {capDelete, false}, "File.read": {capRead, false}, "IO.read": {capRead, false}, "File.readlines": {capRead, false},
			"File.open": {capRead, false}, "File.write": {capWrite, false}, "IO.write": {capWrite, false}, "ENV": {capEnv, false},
			"decode64": {capDecode, false}, "Base64": {capDecode, false}, "unpack1": {capDecode, false}, "unpack": {capDecode, false},
			"fork": {capFork, false}, "Process.fork": {capFork, false}, "loop": {capLoop, false},
		},
		"php": {
			"system": {capExec, true}, "exec": {capExec, true}, "shell_exec": {capExec, true}, "passthru": {capExec, true}, "popen": {capExec, true},
			"proc_open": {capExec, true}, "pcntl_exec": {capExec, true}, "eval": {capEval, true}, "assert": {capEval, true},
			"create_function": {capEval, true}, "include": {capEval, false}, "require": {capEval, false}, "call_user_func": {capDynamic, true},
			"curl_init": {capNet, true}, "curl_exec": {capNet, true}, "file_get_contents": {capRead, true}, "fopen": {capRead, true},
			"fsockopen": {capSocket, true}, "socket_create": {capSocket, true}, "stream_socket_client": {capSocket, true},
			"unlink": {capDelete, true}, "rmdir": {capDelete, true}, "file_put_contents": {capWrite, true}, "fwrite": {capWrite, true},
			"copy": {capWrite, true}, "rename": {capWrite, true}, "chmod": {capWrite, true}, "getenv": {capEnv, true}, "_ENV": {capEnv, false},
			"_SERVER": {capEnv, false}, "base64_decode": {capDecode, true}, "gzinflate": {capDecode, true}, "gzuncompress": {capDecode, true},
			"str_rot13": {capDecode, true}, "hex2bin": {capDecode, true}, "pcntl_fork": {capFork, true},
		},
		"lua": {
			"os.execute": {capExec, true}, "io.popen": {capExec, true}, "load": {capEval, true}, "loadstring": {capEval, true},
			"dofile": {capEval, true}, "loadfile": {capEval, true}, "require": {capDynamic, true}, "socket": {capSocket, false},
			"socket.http": {capNet, false}, "os.remove": {capDelete, true}, "io.open": {capRead, true}, "io.lines": {capRead, true},
			"os.getenv": {capEnv, true}, "os.rename": {capWrite, true},
		},
		"pwsh": {
			"invoke-expression": {capEval, false}, "iex": {capEval, false}, "invoke-command": {capEval, false}, "icm": {capEval, false},
			"scriptblock": {capEval, false}, "start-process": {capExec, false}, "saps": {capExec, false}, "start": {capExec, false},
			"invoke-item": {capExec, false}, "cmd": {capExec, false}, "diagnostics.process": {capExec, false},
			"invoke-webrequest": {capNet, false}, "iwr": {capNet, false}, "invoke-restmethod": {capNet, false}, "irm": {capNet, false},
			"webclient": {capNet, false}, "downloadstring": {capNet, false}, "downloadfile": {capNet, false}, "downloaddata": {capNet, false},
			"uploadstring": {capNet, false}, "uploadfile": {capNet, false}, "uploaddata": {capNet, false}, "uploadvalues": {capNet, false},
			"httpclient": {capNet, false}, "start-bitstransfer": {capNet, false}, "wget": {capNet, false}, "curl": {capNet, false},
			"resolve-dnsname": {capNet, false}, "tcpclient": {capSocket, false}, "sockets": {capSocket, false}, "getstream": {capDup, false},
			"remove-item": {capDelete, false}, "ri": {capDelete, false}, "del": {capDelete, false}, "erase": {capDelete, false},
			"rd": {capDelete, false}, "rmdir": {capDelete, false}, "rm": {capDelete, false}, "clear-content": {capDelete, false},
			"get-content": {capRead, false}, "gc": {capRead, false}, "type": {capRead, false}, "cat": {capRead, false},
			"set-content": {capWrite, false}, "add-content": {capWrite, false}, "out-file": {capWrite, false}, "copy-item": {capWrite, false},
			"move-item": {capWrite, false}, "new-item": {capWrite, false}, "set-itemproperty": {capWrite, false}, "new-itemproperty": {capWrite, false},
			"set-mppreference": {capWrite, false}, "add-mppreference": {capWrite, false}, "register-scheduledtask": {capWrite, false},
			"env": {capEnv, false}, "getenvironmentvariable": {capEnv, false}, "getenvironmentvariables": {capEnv | capEnvBulk, false},
			"frombase64string": {capDecode, false}, "convert": {0, false}, "start-job": {capFork, false},
			"add-type": {capDynamic, false}, "reflection.assembly": {capDynamic, false}, "invoke": {capDynamic, false},
		},
		"osascript": {
			"do shell script": {capExec, false}, "system events": {capExec, false}, "keystroke": {capExec, false},
			"run script": {capEval, false}, "load script": {capEval, false}, "open location": {capNet, false},
			"delete": {capDelete, false}, "read": {capRead, false}, "write": {capWrite, false}, "keychain": {capRead, false},
		},
		"awk": {
			"system": {capExec, true}, "getline": {capRead, false}, "ENVIRON": {capEnv, false}, "close": {0, true},
		},
		"r": {
			"system": {capExec, true}, "system2": {capExec, true}, "shell": {capExec, true}, "pipe": {capExec, true}, "eval": {capEval, true},
			"parse": {capEval, true}, "source": {capEval, true}, "download.file": {capNet, true}, "url": {capNet, true}, "httr": {capNet, false},
			"curl": {capNet, false}, "socketConnection": {capSocket, true}, "unlink": {capDelete, true}, "file.remove": {capDelete, true},
			"readLines": {capRead, true}, "writeLines": {capWrite, true}, "Sys.getenv": {capEnv, true}, "base64decode": {capDecode, true},
			"parallel": {capFork, false}, "mcfork": {capFork, true},
			"sys.source": {capEval, true}, "source_url": {capEval | capNet, true}, "source_gist": {capEval | capNet, true},
			"processx": {capExec, false}, "file.rename": {capWrite, true}, "file.copy": {capWrite, true},
		},
		"java": {
			"Runtime": {capExec, false}, "ProcessBuilder": {capExec, false}, "exec": {capExec, true}, "ScriptEngine": {capEval, false},
			"URL": {capNet, true}, "HttpClient": {capNet, false}, "openConnection": {capNet, true}, "openStream": {capNet, true},
			"Socket": {capSocket, true}, "Files.delete": {capDelete, true}, "deleteIfExists": {capDelete, true}, "delete": {capDelete, true},
			"Files.readString": {capRead, true}, "readAllBytes": {capRead, true}, "Files.write": {capWrite, true}, "writeString": {capWrite, true},
			"System.getenv": {capEnv, true}, "getDecoder": {capDecode, true}, "Class.forName": {capDynamic, true}, "reflect": {capDynamic, false},
		},
		"tcl": {
			"exec": {capExec, false}, "open": {capRead, false}, "eval": {capEval, false}, "socket": {capSocket, false}, "http::geturl": {capNet, false},
			"file delete": {capDelete, false}, "env": {capEnv, false},
		},
	}
	for lang, t := range ecoCodeLangs() {
		m[lang] = t
	}
	return m
}}

// moduleLangs are languages whose bare table names are modules: importing subprocess says
// the code may run programs, calling it is what does.
var moduleLangs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"python": true, "node": true, "php": true, "lua": true, "r": true, "java": true, "julia": true}
}}

// caseFold languages compare identifiers case-insensitively (PowerShell, AppleScript).
var caseFold = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"pwsh": true, "osascript": true, "clojure": true, "forth": true}
}}

// phraseLangs look identifiers up as multi-word phrases ("do shell script").
var phraseLangs = table[map[string]bool]{build: func() map[string]bool { return map[string]bool{"osascript": true, "tcl": true} }}

// Patterns that are not single identifiers.
var (
	reLoopForever = lazyRegexp(`(?i)\bwhile\s*\(\s*(?:true|1|\$true|!0|!false)\s*\)|\bwhile\s+(?:true|1|\$true)\s*(?::|\{|do\b|;|$)|\bfor\s*\(\s*;\s*;\s*\)|\bloop\s*(?:do\b|\{)|\bwhile\s+1\b|\b1\s+while\b|\bfork\s+while\s+fork\b|\bwhile\s*\(\s*\)\s*\{|\brepeat\b[\s\S]{0,200}\buntil\s+false\b|\bwhile\s+:\s*;?\s*do\b|\bfor\s*\(\s*;\s*;\s*\)|\bdo\s*\{[\s\S]{0,400}\}\s*while\s*\(\s*(?:true|1)\s*\)|\bfor\s+\w+\s+in\s+(?:iter\(\s*int\s*,\s*1\s*\)|(?:itertools\.)?count\(\s*\)|(?:itertools\.)?repeat\(\s*[^,()]*\))`)
	reLoopExit    = lazyRegexp(`\b(?:break|return|exit|last|die|sys\.exit|process\.exit|os\.exit|quit|raise|throw|clearInterval)\b`)
	reMemBomb     = lazyRegexp(`(?:["'\])]\s*\*\s*\(?\s*` + reHugeNumber + `|` + reHugeNumber + `\s*\)?\s*\*\s*["'\[]|["'\)]\s*x\s*` + reHugeNumber + `|(?:repeat|alloc|allocUnsafe|allocUnsafeSlow|bytearray|bytes|Array|zeros|ones|empty|malloc|calloc|str_repeat|rep|fill|new\s+Array|new\s+ArrayBuffer)\s*\(\s*` + reHugeNumber + `)`)
	reEnvBulk     = lazyRegexp(`(?i)environ\s*[\),;\]]|environ\s*$|environ\.(?:items|copy|keys|values)\b|\bdict\(\s*os\.environ|process\.env\s*(?:[\),;}]|$)|JSON\.stringify\(\s*process\.env\b|\bENV\.(?:to_h|to_a|each|map|inspect|keys|to_hash)\b|%ENV\b|\$_ENV\s*[\),;]|\$_SERVER\s*[\),;]|getenv\(\s*\)|\benv:\s*[\)\|;]|get-childitem\s+env:|\bgci\s+env:|\bls\s+env:|Sys\.getenv\(\s*\)|\bENVIRON\b[^\[]|Deno\.env\.toObject|getenv\(\)|System\.getenv\(\s*\)|\bprintenv\b|\benv\b\s*\|`)
	reGrow        = lazyRegexp(`\.(?:push|append|extend|concat|add)\(|\+=\s*["'\[]|<<\s*["'\[]|\bpush\s*\(?\s*@`)
	rePyConnect   = lazyRegexp(`\.connect\s*\(\s*\(`)
)

// reHugeNumber is spliced into the expressions above; a constant, so that they are too.
const reHugeNumber = `(?:10\s*\*\*\s*(?:9|[1-9]\d)|\d+(?:\.\d+)?[eE]\+?(?:9|[1-9]\d)|1\s*<<\s*(?:3\d|[4-9]\d)|\d{10,}|2\s*\*\*\s*(?:3\d|[4-9]\d))`

// secretHints are lower-case fragments of secret names and credential paths.
var secretHints = []string{"token", "secret", "passw", "api_key", "apikey", "access_key", "private_key", "credential", "auth", "session",
	"cookie", ".ssh", "id_rsa", "id_ed25519", ".aws", ".netrc", ".pgpass", "kube/config", ".docker/config", "keychain", ".gnupg"}

// hugeNumberHint reports whether code may hold a number of a billion or more (a run of ten
// digits, 1e9 notation, a power or a shift), before the memory-bomb pattern is tried.
func hugeNumberHint(code string) bool {
	if strings.Contains(code, "**") || strings.Contains(code, "<<") {
		return true
	}
	run := 0
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c >= '0' && c <= '9':
			run++
			if run >= 10 {
				return true
			}
		case (c == 'e' || c == 'E') && run > 0 && i+1 < len(code) && code[i+1] >= '0' && code[i+1] <= '9':
			return true
		default:
			run = 0
		}
	}
	return false
}

// maxCodeScan bounds the capability scan: longer code is scanned up to here and then rated
// opaque, whatever it looked like so far.
const maxCodeScan = 64 << 10

// capHit is one recognised identifier: what it grants, where it is, and whether it is called.
type capHit struct {
	cap        codeCap
	start, end int
	name       string
	strong     bool // a call (or a call-less language's statement) that acts
}

// scanCaps returns every capability identifier of code in the language's table plus the
// common patterns (loops, memory bombs, bulk environment reads).
func scanCaps(lang, code string) (hits []capHit, all codeCap) {
	if len(code) > maxCodeScan {
		code = code[:maxCodeScan]
	}
	table := codeLangs.get()[lang]
	fold := caseFold.get()[lang]
	src := code
	if fold {
		src = strings.ToLower(code)
	}
	add := func(e capEntry, start, end int, name string, called bool) {
		if e.cap == 0 {
			return
		}
		if e.call && !called {
			if e.cap&capEval != 0 && end < len(src) && (src[end] == ')' || src[end] == ',') {
				all |= e.cap // eval passed as a callback: .then(eval)
			}
			return
		}
		// A bare name is a statement in the call-less languages (perl: system "ls"); in the
		// others it is a module or class whose calls are what act.
		strong := called || !moduleLangs.get()[lang]
		hits = append(hits, capHit{cap: e.cap, start: start, end: end, name: name, strong: strong})
		all |= e.cap
	}
	if phraseLangs.get()[lang] {
		for name, e := range table {
			if strings.Contains(name, " ") {
				for off := 0; off < len(src) && len(hits) < 512; {
					i := strings.Index(src[off:], name)
					if i < 0 {
						break
					}
					add(e, off+i, off+i+len(name), name, true)
					off += i + len(name)
				}
			}
		}
	}
	for i := 0; i < len(src) && len(hits) < 512; {
		c := src[i]
		if !identStart(c) {
			i++
			continue
		}
		j := i
		for j < len(src) {
			switch {
			case identChar(src[j]):
				j++
				continue
			case src[j] == '.' && j+1 < len(src) && identStart(src[j+1]):
				j++
				continue
			case src[j] == ':' && j+2 < len(src) && src[j+1] == ':' && identStart(src[j+2]):
				j += 2
				continue
			case src[j] == '-' && fold && j+1 < len(src) && identStart(src[j+1]) && j > i && identChar(src[j-1]):
				j++
				continue
			}
			break
		}
		tok := src[i:j]
		k := j
		for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
			k++
		}
		called := k < len(src) && (src[k] == '(' || lang == "ruby" || lang == "perl") || k < len(src) && src[k] == '`'
		// Every contiguous part of the dotted name, longest first: os.path.expanduser,
		// process.env (of process.env.TOKEN), Net::HTTP (of Net::HTTP.post_form).
		if e, name, ok := lookupCap(table, tok); ok {
			add(e, i, j, name, called)
		} else if strings.HasPrefix(tok, "$") {
			if e, name, ok := lookupCap(table, tok[1:]); ok {
				add(e, i, j, name, called) // perl/php sigils: $ENV{…}, $_ENV
			}
		}
		i = j
	}
	all |= langCapsExtra(lang, code)
	if lang == "python" && rePyConnect().MatchString(code) {
		all |= capSocket
	}
	if lang == "awk" && (strings.Contains(code, "/inet/") || strings.Contains(code, "/inet4/") || strings.Contains(code, "/inet6/")) {
		hits = append(hits, capHit{cap: capSocket, name: "/inet/", strong: true})
		all |= capSocket
		if strings.Contains(code, "|&") {
			all |= capDup
		}
	}
	if lang == "awk" {
		// print | "cmd", "cmd" | getline, print |& "cmd": awk pipes run shell commands.
		if strings.Contains(code, "|") && len(awkPipes(code)) > 0 {
			all |= capExec
		}
		if strings.Contains(code, `> "`) || strings.Contains(code, `>> "`) || strings.Contains(code, `>"`) {
			all |= capWrite
		}
	}
	if lang == "perl" && (strings.Contains(code, ">&") || strings.Contains(code, "<&")) {
		all |= capDup
	}
	if lang == "ruby" && strings.Contains(code, "%x") {
		all |= capExec
	}
	if (lang == "perl" || lang == "ruby" || lang == "php") && strings.Count(code, "`") >= 2 {
		all |= capExec
	}
	if strings.Count(code, "chr(") >= 4 || strings.Count(code, "\\x") >= 8 {
		all |= capDecode // a string spelled one character at a time
	}
	// The pattern checks below are gated by cheap substring tests: on 64 KiB of code an
	// alternation regexp costs milliseconds, a substring search microseconds.
	lower := strings.ToLower(code)
	if containsAny(lower, "while", "for", "loop", "until", "setinterval") && reLoopForever().MatchString(code) && !reLoopExit().MatchString(code) {
		all |= capLoop
		if reGrow().MatchString(code) {
			all |= capMemBomb // grows a value forever
		}
	}
	if all&capEnv != 0 && containsAny(lower, "environ", "env", "getenv") && reEnvBulk().MatchString(code) {
		all |= capEnvBulk
	}
	if containsAny(lower, secretHints...) {
		all |= capSecretName
	}
	if hugeNumberHint(code) && reMemBomb().MatchString(code) {
		all |= capMemBomb
	}
	return hits, all
}

// lookupCap finds the longest contiguous part of a dotted identifier that the table knows.
func lookupCap(table map[string]capEntry, tok string) (capEntry, string, bool) {
	if e, ok := table[tok]; ok {
		return e, tok, true
	}
	var cuts []int // component starts
	cuts = append(cuts, 0)
	for k := 0; k < len(tok) && len(cuts) < 8; k++ {
		if tok[k] == '.' || tok[k] == ':' && k+1 < len(tok) && tok[k+1] == ':' {
			w := 1
			if tok[k] == ':' {
				w = 2
			}
			cuts = append(cuts, k+w)
			k += w - 1
		}
	}
	ends := make([]int, len(cuts))
	for n := range cuts {
		if n+1 < len(cuts) {
			e := cuts[n+1] - 1
			if tok[e] == ':' {
				e--
			}
			ends[n] = e
		} else {
			ends[n] = len(tok)
		}
	}
	for span := len(cuts) - 1; span >= 1; span-- {
		for from := 0; from+span <= len(cuts); from++ {
			t := tok[cuts[from]:ends[from+span-1]]
			if e, ok := table[t]; ok {
				return e, t, true
			}
		}
	}
	return capEntry{}, "", false
}

func identStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func identChar(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// CodeFacts is what the capability scan found in a segment's inline code, for the rules.
type CodeFacts struct {
	// Caps are every capability the code has; Unfollowed those of risky calls the analysis
	// could not turn into segments (a variable argument, code built at run time).
	Caps, Unfollowed codeCap
	// Hosts are the literal hosts the code contacts.
	Hosts []string
	// Reads are the literal paths it reads.
	Reads []string
	// Opaque says why the code is opaque, "" when it was followed.
	Opaque string
	// GuardianRoute is a route of guardian serve that answers approvals, revokes grants or
	// resets breakers, named by code that makes requests to this machine; "" when none.
	GuardianRoute string
}
