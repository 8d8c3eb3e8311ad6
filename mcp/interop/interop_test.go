//go:build unix

package interop_test

// The MCP interop suite: `guardian mcp-proxy` between an MCP client and MCP servers that are
// independent implementations on the official TypeScript SDK (testdata/interop: client.mjs,
// upstream.mjs, and @modelcontextprotocol/server-everything). Every test first runs its
// scenario directly, client ↔ server without the proxy, which proves the scripts right and
// records the reference (what the upstream sends, what a host sees); then it runs the same
// scenario through the proxy and checks what the proxy contract (docs/mcp-interop.md) says.
//
// Run with `make interop`; without GUARDIAN_INTEROP=1 the tests skip.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// expectation is what should happen to the elicitation of one step.
type expectation int

const (
	// guardianAllows: an opted-in approval request guardian allows; the upstream gets
	// accept from guardian and the host is never asked.
	guardianAllows expectation = iota + 1
	// guardianDenies: an opted-in approval request guardian denies; the upstream gets
	// decline with a reason and the host is never asked.
	guardianDenies
	// humanDecides: an opted-in approval request guardian hands to the human; the host is
	// asked with guardian's annotation and its answer goes back (cancel if it failed).
	humanDecides
	// malformedOptIn: an approval request guardian cannot read; the host is asked with a
	// note and its answer goes back; guardian never accepts it.
	malformedOptIn
	// passThrough: an elicitation that does not opt in; host and upstream see each other's
	// messages untouched.
	passThrough
	// execApproved, execDenied: Codex exec-approval requests guardian settles, answered in
	// Codex's shape {"decision": …}.
	execApproved
	execDenied
	// execHumanDecides: an exec-approval request forwarded to the host, annotated, with
	// every codex_* param kept; the host's answer is mapped to a decision.
	execHumanDecides
	// noHostToAsk: guardian would ask, but the host has no elicitation capability: the
	// upstream gets cancel.
	noHostToAsk
)

// decision is the guardian decision an expectation needs (the premise of the step).
func (e expectation) decision() string {
	switch e {
	case guardianAllows, execApproved:
		return "allow"
	case guardianDenies, execDenied:
		return "deny"
	case humanDecides, execHumanDecides, noHostToAsk:
		return "ask"
	}
	return ""
}

// elicitationScenario names the expectation of every step of one client.mjs scenario.
type elicitationScenario struct {
	name  string
	steps map[string]expectation
}

func approvalsScenario() elicitationScenario {
	return elicitationScenario{"approvals", map[string]expectation{
		"allow":          guardianAllows,
		"deny":           guardianDenies,
		"ask-accept":     humanDecides,
		"ask-decline":    humanDecides,
		"ask-cancel":     humanDecides,
		"ask-host-error": humanDecides,
	}}
}

func malformedScenario() elicitationScenario {
	return elicitationScenario{"malformed", map[string]expectation{
		"empty-tool-name":      malformedOptIn,
		"params-not-object":    malformedOptIn,
		"tool-name-not-string": malformedOptIn,
		"wrong-kind":           malformedOptIn,
	}}
}

func plainScenario() elicitationScenario {
	return elicitationScenario{"plain", map[string]expectation{
		"ask-name":          passThrough,
		"ask-color-decline": passThrough,
		"ask-color-cancel":  passThrough,
	}}
}

func execScenario() elicitationScenario {
	return elicitationScenario{"exec", map[string]expectation{
		"allow":            execApproved,
		"deny":             execDenied,
		"ask-accept":       execHumanDecides,
		"ask-decline":      execHumanDecides,
		"ask-cancel":       execHumanDecides,
		"ask-raw-decision": execHumanDecides,
	}}
}

// directThenProxy runs a test in two phases, as subtests "direct" and "proxy", so that
// `-run Interop/direct` proves the scripts alone. direct returns the reference report;
// proxy gets it, and is skipped when the direct phase failed.
func directThenProxy(t *testing.T, s interopSuite, direct func(t *testing.T) *report, proxy func(t *testing.T, ref *report)) {
	t.Helper()
	var ref *report
	if !t.Run("direct", func(t *testing.T) { ref = direct(t) }) || ref == nil {
		t.Run("proxy", func(t *testing.T) { t.Skip("the direct run failed: the scripts, not the proxy, need fixing first") })
		return
	}
	t.Run("proxy", func(t *testing.T) {
		s.requireProxy(t)
		proxy(t, ref)
	})
}

// scenarioReports collects the direct reports of parallel subtests.
type scenarioReports struct {
	mu sync.Mutex
	m  map[string]*report
}

func (r *scenarioReports) put(name string, rep *report) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]*report{}
	}
	r.m[name] = rep
}

func (r *scenarioReports) empty() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.m) == 0
}

func (r *scenarioReports) get(name string) *report {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[name]
}

// runScenarios runs scs directly (in parallel), then through the proxy, each scenario's
// proxy phase checked against its own direct report. proxySetup is called once with the
// proxy phase's test (what it starts lives as long as that phase) and returns what runs one
// scenario through the proxy.
func runScenarios(t *testing.T, s interopSuite, sb sandbox, scs []elicitationScenario, parallelProxy bool,
	proxySetup func(t *testing.T) func(t *testing.T, sc elicitationScenario) *report) {
	t.Helper()
	var refs scenarioReports
	t.Run("direct", func(t *testing.T) {
		for _, sc := range scs {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				r := clientRun{scenario: sc.name, command: s.upstreamCmd()}.run(t, s, sb)
				checkDirect(t, s, sb, sc, r)
				if !t.Failed() {
					refs.put(sc.name, r)
				}
			})
		}
	})
	t.Run("proxy", func(t *testing.T) {
		if refs.empty() {
			t.Skip("every direct run failed: the scripts, not the proxy, need fixing first")
		}
		s.requireProxy(t)
		proxied := proxySetup(t)
		for _, sc := range scs {
			t.Run(sc.name, func(t *testing.T) {
				if parallelProxy {
					t.Parallel()
				}
				ref := refs.get(sc.name)
				if ref == nil {
					t.Skip("the direct run failed: the scripts, not the proxy, need fixing first")
				}
				checkProxied(t, s, sb, sc, ref, proxied(t, sc))
			})
		}
	})
}

// TestInteropElicitations runs every elicitation scenario directly and through
// `guardian mcp-proxy -- node upstream.mjs` over stdio.
func TestInteropElicitations(t *testing.T) {
	s, sb := parallelSuite(t)
	scs := []elicitationScenario{approvalsScenario(), malformedScenario(), plainScenario(), execScenario()}
	runScenarios(t, s, sb, scs, true, func(*testing.T) func(t *testing.T, sc elicitationScenario) *report {
		return func(t *testing.T, sc elicitationScenario) *report {
			return clientRun{scenario: sc.name, command: s.proxyCmd(nil, s.upstreamCmd()...)}.run(t, s, sb)
		}
	})
}

// TestInteropHTTPDownstream serves the host over streamable HTTP (`--listen`): one proxy,
// several sessions one after the other, each a fresh client.
func TestInteropHTTPDownstream(t *testing.T) {
	s, sb := parallelSuite(t)
	scs := []elicitationScenario{approvalsScenario(), plainScenario(), execScenario()}
	runScenarios(t, s, sb, scs, false, func(t *testing.T) func(t *testing.T, sc elicitationScenario) *report {
		// One proxy for every scenario, each a new session on a proxy that may have served
		// one already. It is ready when its stderr names the address it listens on.
		addr := freeLoopbackAddr(t)
		startServer(t, sb, addr, s.guardian, s.proxyCmd([]string{"--listen", addr}, s.upstreamCmd()...)[1:]...)
		url := "http://" + addr + "/mcp"
		return func(t *testing.T, sc elicitationScenario) *report {
			r := clientRun{scenario: sc.name, url: url}.run(t, s, sb)
			if r.Transport != "http" {
				t.Fatalf("the client ran over %q, want http", r.Transport)
			}
			return r
		}
	})
}

// TestInteropHTTPUpstream puts the proxy (stdio towards the host) in front of a
// streamable-HTTP upstream (`--url`). The direct run goes over HTTP too, which proves the
// client's and the upstream's HTTP modes.
func TestInteropHTTPUpstream(t *testing.T) {
	s, sb := parallelSuite(t)
	const ready = "upstream listening on "
	out := startServer(t, sb, ready, s.node, filepath.Join(s.dir, "upstream.mjs"), "--listen", "127.0.0.1:0")
	_, line, _ := strings.Cut(out.String(), ready)
	url, _, _ := strings.Cut(line, "\n")
	sc := approvalsScenario()
	directThenProxy(t, s, func(t *testing.T) *report {
		r := clientRun{scenario: sc.name, url: url}.run(t, s, sb)
		checkDirect(t, s, sb, sc, r)
		return r
	}, func(t *testing.T, ref *report) {
		proxied := clientRun{scenario: sc.name, command: s.proxyCmd([]string{"--url", url})}.run(t, s, sb)
		checkProxied(t, s, sb, sc, ref, proxied)
	})
}

// TestInteropNoElicitationHost: a host that did not declare elicitation. guardian's own
// decisions still reach the upstream; a request for the human gets cancel.
func TestInteropNoElicitationHost(t *testing.T) {
	s, sb := parallelSuite(t)
	directThenProxy(t, s, func(t *testing.T) *report {
		r := clientRun{scenario: "no-elicitation", command: s.upstreamCmd()}.run(t, s, sb)
		for _, st := range r.Steps {
			// Without the capability the client has no handler: the upstream's request fails.
			e := asMap(asMap(st.Value)["error"])
			if len(st.Elicitations) != 0 || e == nil || e["code"] != float64(-32601) {
				t.Errorf("%s: the client without elicitation should answer -32601 (method not found); got value %s, %d elicitations",
					st.Name, show(st.Value), len(st.Elicitations))
			}
		}
		// The same requests to a host that can be asked: the reference for what was sent.
		ref := clientRun{scenario: "approvals", command: s.upstreamCmd()}.run(t, s, sb)
		checkDirect(t, s, sb, approvalsScenario(), ref)
		return ref
	}, func(t *testing.T, ref *report) {
		proxied := clientRun{scenario: "no-elicitation", command: s.proxyCmd(nil, s.upstreamCmd()...)}.run(t, s, sb)
		for _, c := range []struct {
			step, ref string
			want      expectation
		}{{"allow", "allow", guardianAllows}, {"deny", "deny", guardianDenies}, {"ask", "ask-accept", noHostToAsk}} {
			t.Run(c.step, func(t *testing.T) {
				checkStep(t, s, sb, c.want, ref.step(t, c.ref), proxied.step(t, c.step), false)
			})
		}
		if len(proxied.Unexpected) != 0 {
			t.Errorf("the host without elicitation received %d elicitations", len(proxied.Unexpected))
		}
	})
}

// TestInteropMarkers: touch_marker and wipe_marker, the tools the end-to-end host tests use.
// guardian allows the touch (a new file in /tmp) and denies the wipe (its approval request
// claims rm -rf /), without asking the host; the marker file is created and survives.
func TestInteropMarkers(t *testing.T) {
	s, sb := parallelSuite(t)
	// guardian's rules allow writes only in a temporary directory (/tmp, /var/tmp, /dev/shm)
	// or the workspace, so the markers live in /tmp whatever TMPDIR says.
	dir, err := os.MkdirTemp("/tmp", "guardian-interop-marker-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	directThenProxy(t, s, func(t *testing.T) *report {
		// Directly, the host is asked: it accepts the touch and declines the wipe.
		marker := filepath.Join(dir, "direct-MARKER")
		r := clientRun{scenario: "markers", marker: marker, command: s.upstreamCmd()}.run(t, s, sb)
		touch, wipe := r.step(t, "touch"), r.step(t, "wipe")
		if len(touch.Elicitations) != 1 || asMap(touch.Value)["touched"] != true || !exists(marker) {
			t.Errorf("touch_marker: want one elicitation, touched and the file created; got %d, %s, exists=%v",
				len(touch.Elicitations), show(touch.Value), exists(marker))
		}
		if len(wipe.Elicitations) != 1 || asMap(wipe.Value)["wiped"] != false || !exists(marker) {
			t.Errorf("wipe_marker: want one elicitation, not wiped and the file kept; got %d, %s, exists=%v",
				len(wipe.Elicitations), show(wipe.Value), exists(marker))
		}
		checkPremise(t, s, sb, guardianAllows, touch.Elicitations)
		checkPremise(t, s, sb, guardianDenies, wipe.Elicitations)
		return r
	}, func(t *testing.T, _ *report) {
		marker := filepath.Join(dir, "proxied-MARKER")
		r := clientRun{scenario: "markers", marker: marker, command: s.proxyCmd(nil, s.upstreamCmd()...)}.run(t, s, sb)
		touch, wipe := r.step(t, "touch"), r.step(t, "wipe")
		for _, st := range []step{touch, wipe} {
			checkStepCall(t, st)
			checkHostNotAsked(t, st)
		}
		checkGuardianAccept(t, asMap(asMap(touch.Value)["elicitation"]))
		checkGuardianDecline(t, asMap(asMap(wipe.Value)["elicitation"]))
		if asMap(touch.Value)["touched"] != true || asMap(wipe.Value)["wiped"] != false || !exists(marker) {
			t.Errorf("want the marker touched and not wiped; got touch %s, wipe %s, exists=%v",
				show(touch.Value), show(wipe.Value), exists(marker))
		}
	})
}

// TestInteropSchemaFidelity: the tool list through the proxy equals the direct one (names,
// input schemas with anyOf/$defs/$ref, descriptions, annotations, output schemas), and the
// schema tools' calls, structured content included, come back the same.
func TestInteropSchemaFidelity(t *testing.T) {
	s, sb := parallelSuite(t)
	directThenProxy(t, s, func(t *testing.T) *report {
		r := clientRun{scenario: "list", command: s.upstreamCmd()}.run(t, s, sb)
		checkListingValid(t, "tools", r.Listing.Tools)
		schema := asMap(byName(r.Listing.Tools.Items)["schema_anyof_defs"]["inputSchema"])
		if schema["$defs"] == nil || schema["description"] == nil || !strings.Contains(show(schema), `"anyOf"`) {
			t.Errorf("schema_anyof_defs's input schema lost anyOf/$defs/description before any proxy: %s", show(schema))
		}
		for _, st := range r.Steps {
			if st.Error != nil || !reflect.DeepEqual(asMap(st.Value)["received"], any(st.Arguments)) {
				t.Errorf("%s should echo its arguments %s; got %s (error %v)", st.Tool, show(st.Arguments), show(st.Value), st.Error)
			}
		}
		return r
	}, func(t *testing.T, ref *report) {
		r := clientRun{scenario: "list", command: s.proxyCmd(nil, s.upstreamCmd()...)}.run(t, s, sb)
		checkListingValid(t, "tools", r.Listing.Tools)
		compareTools(t, ref.Listing.Tools.Items, r.Listing.Tools.Items, nil)
		for _, st := range ref.Steps {
			got := r.step(t, st.Name)
			checkStepCall(t, got)
			checkSame(t, st.Tool+"'s result", got.Result, any(st.Result))
		}
	})
}

// everythingConditionalTools are server-everything's tools that it lists only when the client
// declared a capability (roots, sampling, elicitation, URL elicitation, tasks): the proxy
// declares its own capabilities upstream, so these may differ between a direct and a proxied
// listing, and are compared only when both have them.
func everythingConditionalTools() map[string]bool {
	return map[string]bool{
		"get-roots-list": true, "trigger-sampling-request": true, "trigger-url-elicitation": true,
		"trigger-sampling-request-async": true, "trigger-elicitation-request-async": true,
		"trigger-elicitation-request": true,
	}
}

// TestInteropServerEverything puts @modelcontextprotocol/server-everything behind the proxy:
// the same tools, resources, resource templates and prompts as listing it directly, and an
// echo, a sum, two resource reads and two prompts that work.
func TestInteropServerEverything(t *testing.T) {
	s, sb := parallelSuite(t)
	directThenProxy(t, s, func(t *testing.T) *report {
		r := clientRun{scenario: "everything", command: s.everythingCmd()}.run(t, s, sb)
		l := r.Listing
		for what, lr := range map[string]listResult{"tools": l.Tools, "resources": l.Resources, "resource templates": l.ResourceTemplates, "prompts": l.Prompts} {
			checkListingValid(t, what, lr)
			if len(lr.Items) == 0 {
				t.Errorf("server-everything listed no %s", what)
			}
		}
		for _, st := range r.Steps {
			if st.Error != nil || st.SDKValid == nil || !*st.SDKValid {
				t.Errorf("%s: error %v, sdk_valid %v %s", st.Name, st.Error, st.SDKValid, st.SDKError)
			}
		}
		for name, want := range map[string]string{
			"echo": "Echo: hello from guardian interop", "get-sum": "42", "prompt-args": "Zürich, ZH",
			"read-template": "Resource 1:", "read-static": `"uri":"demo://resource/static/document/`,
		} {
			if got := show(r.step(t, name).Result); !strings.Contains(got, want) {
				t.Errorf("%s: %s lacks %q", name, got, want)
			}
		}
		return r
	}, func(t *testing.T, ref *report) {
		r := clientRun{scenario: "everything", command: s.proxyCmd(nil, s.everythingCmd()...)}.run(t, s, sb)
		for _, c := range []string{"tools", "resources", "prompts"} {
			if _, ok := r.Server.Capabilities[c]; !ok {
				t.Errorf("the proxy in front of server-everything does not declare the %s capability: %s", c, show(r.Server.Capabilities))
			}
		}
		l, p := ref.Listing, r.Listing
		checkListingValid(t, "tools", p.Tools)
		compareTools(t, l.Tools.Items, p.Tools.Items, everythingConditionalTools())
		for what, pair := range map[string][2]listResult{
			"resources":          {l.Resources, p.Resources},
			"resource templates": {l.ResourceTemplates, p.ResourceTemplates},
			"prompts":            {l.Prompts, p.Prompts},
		} {
			checkListingValid(t, what, pair[1])
			checkSame(t, what, normalizedListing(pair[1].Items), normalizedListing(pair[0].Items))
		}
		for _, st := range ref.Steps {
			got := r.step(t, st.Name)
			checkStepCall(t, got)
			want, have := st.Result, got.Result
			if st.Name == "read-template" {
				// The dynamic resource's text carries the time it was made.
				want, have = withoutVolatileText(want), withoutVolatileText(have)
			}
			checkSame(t, st.Name+"'s result", have, any(want))
		}
	})
}

// --- checks ------------------------------------------------------------------------------

// checkDirect proves a scenario's scripts right without the proxy: each step's elicitation
// reached the client once, valid for the SDK, and the upstream got exactly the host's answer;
// and guardian's rules decide each step's request as the step expects.
func checkDirect(t *testing.T, s interopSuite, sb sandbox, sc elicitationScenario, r *report) {
	t.Helper()
	if got := len(r.Steps); got != len(sc.steps) {
		t.Fatalf("direct %s: %d steps in the report, the test knows %d", sc.name, got, len(sc.steps))
	}
	for _, st := range r.Steps {
		want, ok := sc.steps[st.Name]
		if !ok {
			t.Fatalf("direct %s: step %q has no expectation in the test", sc.name, st.Name)
		}
		if st.Error != nil || len(st.Elicitations) != 1 {
			t.Errorf("direct %s/%s: want one elicitation and no error; got %d, error %v", sc.name, st.Name, len(st.Elicitations), st.Error)
			continue
		}
		e := st.Elicitations[0]
		if !e.SDKValid {
			t.Errorf("direct %s/%s: the SDK rejects the upstream's own elicitation: %s", sc.name, st.Name, e.SDKError)
		}
		wantValue := any(st.Answer)
		if st.Answer["error"] != nil {
			// A host error comes back to the upstream as a failed request.
			if v := asMap(asMap(st.Value)["error"]); v == nil || !strings.Contains(fmt.Sprint(v["message"]), "interop host failed") {
				t.Errorf("direct %s/%s: the host's error did not reach the upstream: %s", sc.name, st.Name, show(st.Value))
			}
		} else if !reflect.DeepEqual(st.Value, wantValue) {
			t.Errorf("direct %s/%s: the upstream got %s, the host answered %s", sc.name, st.Name, show(st.Value), show(wantValue))
		}
		switch want {
		case guardianAllows, guardianDenies, humanDecides:
			if !optedIn(e) {
				t.Errorf("direct %s/%s: the elicitation does not opt in: %s", sc.name, st.Name, show(e.Meta))
			}
		case execApproved, execDenied, execHumanDecides:
			if e.Extra["codex_elicitation"] != "exec-approval" {
				t.Errorf("direct %s/%s: not an exec-approval elicitation: %s", sc.name, st.Name, show(e.Params))
			}
		case malformedOptIn:
			if e.Meta["codex_request_type"] != "approval_request" || optedIn(e) {
				t.Errorf("direct %s/%s: not a malformed opt-in: %s", sc.name, st.Name, show(e.Meta))
			}
		case passThrough:
			if e.Meta["codex_request_type"] != nil {
				t.Errorf("direct %s/%s: a plain elicitation must not carry codex_request_type: %s", sc.name, st.Name, show(e.Meta))
			}
		}
		checkPremise(t, s, sb, want, st.Elicitations)
	}
}

// checkPremise checks that guardian's pipeline (`guardian review`, which the proxy shares)
// decides the request of an elicitation as the step expects; otherwise the rules changed and
// the scenario needs another request, which is a different failure from a proxy bug.
func checkPremise(t *testing.T, s interopSuite, sb sandbox, want expectation, es []elicitation) {
	t.Helper()
	if want.decision() == "" || len(es) != 1 {
		return
	}
	if v := review(t, s, sb, reviewRequest(es[0])); v.Decision != want.decision() {
		t.Errorf("premise: guardian review decides %s for %s, the scenario needs %s (pick another request in upstream.mjs)",
			v.Decision, show(reviewRequest(es[0])), want.decision())
	}
}

// checkProxied checks every step of a proxied run against its direct reference.
func checkProxied(t *testing.T, s interopSuite, sb sandbox, sc elicitationScenario, direct, proxied *report) {
	t.Helper()
	for _, ref := range direct.Steps {
		t.Run(ref.Name, func(t *testing.T) {
			checkStep(t, s, sb, sc.steps[ref.Name], ref, proxied.step(t, ref.Name), proxied.Transport == "http")
		})
	}
	if len(proxied.Unexpected) != 0 {
		t.Errorf("the host got %d elicitations while no call was running: %s", len(proxied.Unexpected), show(proxied.Unexpected))
	}
}

// checkStep checks one proxied step against the contract, given the direct run's step as the
// reference for what the upstream sent. httpHost says the host reached the proxy over
// streamable HTTP, where mcp-go's server sends only the typed elicitation params: the codex_*
// params of an exec approval travel in _meta there (docs/mcp.md).
func checkStep(t *testing.T, s interopSuite, sb sandbox, want expectation, ref, got step, httpHost bool) {
	t.Helper()
	checkStepCall(t, got)
	if len(ref.Elicitations) != 1 {
		t.Fatalf("the direct reference has %d elicitations", len(ref.Elicitations))
	}
	orig := ref.Elicitations[0]
	value := asMap(got.Value)
	switch want {
	case guardianAllows:
		checkHostNotAsked(t, got)
		checkGuardianAccept(t, value)
	case guardianDenies:
		checkHostNotAsked(t, got)
		checkGuardianDecline(t, value)
	case noHostToAsk:
		checkHostNotAsked(t, got)
		if !reflect.DeepEqual(value, map[string]any{"action": "cancel"}) {
			t.Errorf("guardian asks but the host cannot be asked: the upstream should get {\"action\":\"cancel\"}, got %s", show(got.Value))
		}
	case humanDecides:
		e := checkHostAskedOnce(t, got)
		v := review(t, s, sb, reviewRequest(orig))
		checkAssessmentMeta(t, e, orig, v)
		checkAnnotation(t, e.Message, orig.Message, v)
		checkSame(t, "requestedSchema", e.RequestedSchema, orig.RequestedSchema)
		checkSame(t, "the answer the upstream got", got.Value, hostAnswerAsGiven(got.Answer))
	case malformedOptIn:
		e := checkHostAskedOnce(t, got)
		checkMalformedNote(t, e.Message, orig.Message)
		for k, ov := range orig.Meta {
			checkSame(t, "_meta["+k+"]", e.Meta[k], ov)
		}
		checkSame(t, "requestedSchema", e.RequestedSchema, orig.RequestedSchema)
		checkSame(t, "the answer the upstream got", got.Value, any(got.Answer))
	case passThrough:
		e := checkHostAskedOnce(t, got)
		checkSame(t, "the elicitation params the host got", e.Params, orig.Params)
		checkSame(t, "the answer the upstream got", got.Value, any(got.Answer))
	case execApproved, execDenied:
		checkHostNotAsked(t, got)
		checkExecDecision(t, value, map[expectation]string{execApproved: "approved", execDenied: "denied"}[want])
	case execHumanDecides:
		e := checkHostAskedOnce(t, got)
		v := review(t, s, sb, reviewRequest(orig))
		checkAnnotation(t, e.Message, orig.Message, v)
		for k, ov := range orig.Extra {
			if strings.HasPrefix(k, "codex_") && httpHost {
				checkSame(t, "_meta["+k+"]", e.Meta[k], ov)
			} else if strings.HasPrefix(k, "codex_") {
				checkSame(t, k, e.Extra[k], ov)
			} else if !reflect.DeepEqual(e.Extra[k], ov) {
				t.Logf("note: the exec-approval param %s changed from %s to %s (the contract keeps only codex_*)", k, show(ov), show(e.Extra[k]))
			}
		}
		checkSame(t, "requestedSchema", e.RequestedSchema, orig.RequestedSchema)
		checkExecDecision(t, value, execMapping(got.Answer, httpHost))
	default:
		t.Fatalf("step %s has no expectation", got.Name)
	}
}

// checkStepCall checks that the call itself worked and the result is a valid CallToolResult.
func checkStepCall(t *testing.T, got step) {
	t.Helper()
	if got.Error != nil {
		t.Fatalf("%s failed through the proxy: %v", got.Name, got.Error)
	}
	if got.SDKValid == nil || !*got.SDKValid {
		t.Errorf("%s: the SDK rejects the result the proxy returned: %s", got.Name, got.SDKError)
	}
	if got.Result["isError"] == true {
		t.Fatalf("%s: the upstream's elicitation/create failed through the proxy: %s", got.Name, show(got.Value))
	}
}

func checkHostNotAsked(t *testing.T, got step) {
	t.Helper()
	if n := len(got.Elicitations); n != 0 {
		t.Errorf("the host was asked %d times, want never (guardian decides this one); it was shown %q", n, got.Elicitations[0].Message)
	}
}

func checkHostAskedOnce(t *testing.T, got step) elicitation {
	t.Helper()
	if n := len(got.Elicitations); n != 1 {
		t.Fatalf("the host was asked %d times, want once; the upstream got %s", n, show(got.Value))
	}
	e := got.Elicitations[0]
	if !e.SDKValid {
		t.Errorf("the elicitation the proxy forwarded is not valid for the MCP SDK: %s\n%s", e.SDKError, show(e.Params))
	}
	return e
}

// checkGuardianAccept: {"action":"accept","content":{},"_meta":{"approvals_reviewer":"guardian","guardian/decision":"allow",…}}.
func checkGuardianAccept(t *testing.T, v map[string]any) {
	t.Helper()
	meta := asMap(v["_meta"])
	if v["action"] != "accept" || !reflect.DeepEqual(v["content"], map[string]any{}) ||
		meta["approvals_reviewer"] != "guardian" || meta["guardian/decision"] != "allow" {
		t.Errorf(`guardian allows: the upstream should get {"action":"accept","content":{},"_meta":{"approvals_reviewer":"guardian","guardian/decision":"allow",…}}; got %s`, show(v))
	}
}

// checkGuardianDecline: {"action":"decline","_meta":{"approvals_reviewer":"guardian","message":"<reason>","guardian/decision":"deny",…}}.
func checkGuardianDecline(t *testing.T, v map[string]any) {
	t.Helper()
	meta := asMap(v["_meta"])
	reason, _ := meta["message"].(string)
	if v["action"] != "decline" || meta["approvals_reviewer"] != "guardian" || meta["guardian/decision"] != "deny" || strings.TrimSpace(reason) == "" {
		t.Errorf(`guardian denies: the upstream should get {"action":"decline","_meta":{"approvals_reviewer":"guardian","message":"<reason>","guardian/decision":"deny",…}}; got %s`, show(v))
	}
}

// checkAssessmentMeta: the forwarded _meta is every original key verbatim plus
// guardian/assessment {summary, risk_level, category, rationale}, as guardian review assesses.
func checkAssessmentMeta(t *testing.T, e, orig elicitation, v verdict) {
	t.Helper()
	for k, ov := range orig.Meta {
		checkSame(t, "_meta["+k+"]", e.Meta[k], ov)
	}
	for k := range e.Meta {
		if _, ok := orig.Meta[k]; !ok && k != "guardian/assessment" {
			t.Errorf("the forwarded _meta has a key %q that is neither original nor guardian/assessment", k)
		}
	}
	a := asMap(e.Meta["guardian/assessment"])
	for _, k := range []string{"summary", "risk_level", "category", "rationale"} {
		if s, _ := a[k].(string); strings.TrimSpace(s) == "" {
			t.Errorf("_meta[guardian/assessment].%s is missing or empty: %s", k, show(e.Meta["guardian/assessment"]))
		}
	}
	if a["risk_level"] != v.Assessment.RiskLevel || a["category"] != v.Assessment.Category {
		t.Errorf("_meta[guardian/assessment] says %v/%v, guardian review says %s/%s", a["risk_level"], a["category"], v.Assessment.RiskLevel, v.Assessment.Category)
	}
}

// checkAnnotation: message = original message, a blank line, then a line starting
// "guardian:" with the summary, risk level and category.
func checkAnnotation(t *testing.T, got, orig string, v verdict) {
	t.Helper()
	prefix := orig + "\n\n"
	if !strings.HasPrefix(got, prefix) {
		t.Errorf("the forwarded message should be the original, a blank line, then guardian's line; got %q, original %q", got, orig)
		return
	}
	line, _, _ := strings.Cut(got[len(prefix):], "\n")
	if !strings.HasPrefix(line, "guardian:") {
		t.Errorf("the line after the blank line should start with \"guardian:\"; got %q", line)
		return
	}
	for what, want := range map[string]string{"summary": v.Assessment.Summary, "risk level": v.Assessment.RiskLevel, "category": v.Assessment.Category} {
		if !strings.Contains(line, want) && !strings.Contains(line, strings.ReplaceAll(want, "_", " ")) {
			t.Errorf("guardian's line %q lacks the %s %q", line, what, want)
		}
	}
}

// checkMalformedNote: the original message with a line
// "guardian: could not review this approval request: <why>" appended.
func checkMalformedNote(t *testing.T, got, orig string) {
	t.Helper()
	const note = "guardian: could not review this approval request: "
	if !strings.HasPrefix(got, orig) {
		t.Errorf("the forwarded message should start with the original %q; got %q", orig, got)
		return
	}
	for _, line := range strings.Split(got[len(orig):], "\n") {
		if why, ok := strings.CutPrefix(line, note); ok && strings.TrimSpace(why) != "" {
			return
		}
	}
	t.Errorf("the forwarded message lacks a line %q<why>: %q", note, got)
}

// hostAnswerAsGiven is what the upstream gets when the host answered answer: the answer
// itself, or {"action":"cancel"} when the host cancelled or failed.
func hostAnswerAsGiven(answer map[string]any) any {
	if answer["error"] != nil || answer["action"] == "cancel" {
		return map[string]any{"action": "cancel"}
	}
	return answer
}

// execMapping is the decision the upstream gets when the host answered an exec-approval
// with answer: its own decision if it has one, else accept → approved, decline → denied,
// cancel or failure → abort.
//
// Over an HTTP host the proxy reads the answer as an ElicitResult only (mcp-go's server sees
// no other keys), so a raw {"decision"} answer has no action there and is the safe abort.
func execMapping(answer map[string]any, httpHost bool) string {
	if d, ok := answer["decision"].(string); ok && !httpHost {
		return d
	}
	switch answer["action"] {
	case "accept":
		return "approved"
	case "decline":
		return "denied"
	}
	return "abort"
}

// checkExecDecision: the result is Codex's shape {"decision": want}, not an ElicitResult.
func checkExecDecision(t *testing.T, v map[string]any, want string) {
	t.Helper()
	if v["decision"] != want || v["action"] != nil {
		t.Errorf(`the upstream should get Codex's {"decision":%q}; got %s`, want, show(v))
	}
}

func checkSame(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s through the proxy:\n  got  %s\n  want %s", what, show(got), show(want))
	}
}

func checkListingValid(t *testing.T, what string, lr listResult) {
	t.Helper()
	if lr.Error != nil {
		t.Fatalf("%s: listing failed: %v", what, lr.Error)
	}
	if lr.SDKValid == nil || !*lr.SDKValid {
		t.Errorf("%s: the SDK rejects the listing: %s", what, lr.SDKError)
	}
}

// compareTools checks a proxied tool list against the direct one: the same names, and per
// tool the same inputSchema, description, title, annotations and outputSchema (deep-equal
// after decoding). Tools named in conditional may be on one side only; other fields that
// differ are noted in the log.
func compareTools(t *testing.T, direct, proxied []map[string]any, conditional map[string]bool) {
	t.Helper()
	d, p := byName(direct), byName(proxied)
	for _, name := range slices.Sorted(maps.Keys(d)) {
		pt, ok := p[name]
		switch {
		case !ok && conditional[name]:
			t.Logf("note: %s is listed directly but not through the proxy (it depends on the client's capabilities)", name)
			continue
		case !ok:
			t.Errorf("tool %s is listed directly but not through the proxy", name)
			continue
		}
		dt := d[name]
		for _, field := range []string{"inputSchema", "description", "title", "annotations", "outputSchema"} {
			if field == "annotations" && emptyObject(pt[field]) && emptyObject(dt[field]) {
				continue // mcp-go always writes "annotations": an empty object is no hints at all
			}
			if !reflect.DeepEqual(pt[field], dt[field]) {
				t.Errorf("tool %s: %s through the proxy:\n  got  %s\n  want %s", name, field, show(pt[field]), show(dt[field]))
			}
		}
		for _, field := range slices.Sorted(maps.Keys(union(dt, pt))) {
			switch field {
			case "name", "inputSchema", "description", "title", "annotations", "outputSchema":
			default:
				if !reflect.DeepEqual(pt[field], dt[field]) {
					t.Logf("note: tool %s: %s differs through the proxy: %s, directly %s", name, field, show(pt[field]), show(dt[field]))
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p)) {
		if _, ok := d[name]; !ok {
			if conditional[name] {
				t.Logf("note: %s is listed through the proxy but not directly (it depends on the client's capabilities)", name)
			} else {
				t.Errorf("tool %s is listed through the proxy but not directly", name)
			}
		}
	}
}

// emptyObject reports whether v is absent or an empty JSON object.
func emptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return v == nil || ok && len(m) == 0
}

// normalizedListing is a resources, resource templates or prompts listing in a canonical form
// that keeps its meaning: sorted by name then URI (MCP gives list order no meaning, and mcp-go's
// server lists by name), and a prompt argument's "required": false, the default, dropped.
func normalizedListing(items []map[string]any) []map[string]any {
	out := slices.Clone(items)
	key := func(m map[string]any) string {
		return fmt.Sprint(m["name"], "\x00", m["uri"], "\x00", m["uriTemplate"])
	}
	slices.SortFunc(out, func(a, b map[string]any) int { return strings.Compare(key(a), key(b)) })
	for i, m := range out {
		args, ok := m["arguments"].([]any)
		if !ok {
			continue
		}
		m = maps.Clone(m)
		norm := make([]any, len(args))
		for j, a := range args {
			am, ok := a.(map[string]any)
			if ok && am["required"] == false {
				am = maps.Clone(am)
				delete(am, "required")
			}
			norm[j] = am
			if !ok {
				norm[j] = a
			}
		}
		m["arguments"] = norm
		out[i] = m
	}
	return out
}

// --- requests and small helpers --------------------------------------------------------------

// optedIn reports whether an elicitation opts in to review, as the contract defines it.
func optedIn(e elicitation) bool {
	name, _ := e.Meta["tool_name"].(string)
	_, paramsOK := e.Meta["tool_params"].(map[string]any)
	return e.Meta["codex_request_type"] == "approval_request" && e.Meta["codex_approval_kind"] == "mcp_tool_call" &&
		name != "" && (e.Meta["tool_params"] == nil || paramsOK)
}

// reviewRequest is the guardian request the proxy builds from an elicitation, per the
// contract: an opt-in is an MCP request (server = connector_name, else connector_id, else the
// upstream's name, which for `-- node upstream.mjs` is "node"); an exec-approval is an exec
// request (command, cwd).
func reviewRequest(e elicitation) map[string]any {
	if e.Extra["codex_elicitation"] == "exec-approval" {
		return map[string]any{"kind": "exec", "request": map[string]any{"command": e.Extra["codex_command"], "cwd": e.Extra["codex_cwd"]}}
	}
	m := e.Meta
	server := "node"
	for _, k := range []string{"connector_id", "connector_name"} {
		if s, _ := m[k].(string); s != "" {
			server = s
		}
	}
	req := map[string]any{"server": server, "tool": m["tool_name"], "message": e.Message}
	if args, ok := m["tool_params"].(map[string]any); ok {
		req["arguments"] = args
	}
	if s, _ := m["tool_title"].(string); s != "" {
		req["title"] = s
	}
	if s, _ := m["tool_description"].(string); s != "" {
		req["tool_description"] = s
	}
	return map[string]any{"kind": "mcp", "request": req}
}

func byName(items []map[string]any) map[string]map[string]any {
	m := make(map[string]map[string]any, len(items))
	for _, it := range items {
		if name, ok := it["name"].(string); ok {
			m[name] = it
		}
	}
	return m
}

func union(a, b map[string]any) map[string]any {
	m := maps.Clone(a)
	maps.Copy(m, b)
	return m
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// withoutVolatileText drops the text of a resources/read result, keeping its uri and type.
func withoutVolatileText(result map[string]any) map[string]any {
	var out []any
	contents, _ := result["contents"].([]any)
	for _, c := range contents {
		c := maps.Clone(asMap(c))
		if text, ok := c["text"].(string); ok {
			c["text"], _, _ = strings.Cut(text, " created at ")
		}
		out = append(out, c)
	}
	return map[string]any{"contents": out}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// show renders v as compact JSON for a failure message.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}
