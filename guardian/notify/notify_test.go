package notify_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/cenkalti/backoff/v4"

	"github.com/guardianhq/guardian/guardian/notify"
)

// hookServer records the bodies it gets and answers with the codes given, then 200.
type hookServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
	codes  []int
}

func newHookServer(t *testing.T, codes ...int) *hookServer {
	h := &hookServer{codes: codes}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.bodies = append(h.bodies, string(b))
		code := http.StatusOK
		if len(h.codes) > 0 {
			code, h.codes = h.codes[0], h.codes[1:]
		}
		h.mu.Unlock()
		w.WriteHeader(code)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookServer) got() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.bodies...)
}

// instant retries at once, at most 4 times: the tests check what is retried, not when.
func instant() backoff.BackOff { return backoff.WithMaxRetries(backoff.NewConstantBackOff(0), 4) }

var deny = notify.Event{Kind: notify.KindDeny, Summary: "Recursively deletes /", ID: "0123456789abcdef", Host: "claude", DecidedBy: "rule:fs.rm.vital"}

func TestDeliveryRetries(t *testing.T) {
	tests := []struct {
		name     string
		codes    []int
		attempts int
	}{
		{"at once", nil, 1},
		{"after 5xx and 429", []int{503, 429, 500}, 4},
		{"never after a 4xx", []int{404}, 1},
		{"not past the retries", []int{500, 500, 500, 500, 500, 500}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHookServer(t, tc.codes...)
			n := notify.New([]notify.Webhook{{URL: h.URL + "/hook"}}, notify.WithBackOff(instant))
			n.Notify(context.Background(), deny)
			if err := n.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := h.got()
			if len(got) != tc.attempts {
				t.Fatalf("%d attempts, want %d", len(got), tc.attempts)
			}
			var e notify.Event
			if err := json.Unmarshal([]byte(got[0]), &e); err != nil || e.Kind != notify.KindDeny || e.ID != deny.ID || e.Time.IsZero() {
				t.Errorf("body %s: %v", got[0], err)
			}
		})
	}
}

// TestKinds: a webhook gets only the kinds it asks for.
func TestKinds(t *testing.T) {
	all, breakers := newHookServer(t), newHookServer(t)
	n := notify.New([]notify.Webhook{{URL: all.URL}, {URL: breakers.URL, Kinds: []notify.Kind{notify.KindBreakerOpen}}}, notify.WithBackOff(instant))
	n.Notify(context.Background(), deny)
	n.Notify(context.Background(), notify.Event{Kind: notify.KindBreakerOpen, Summary: "denials breaker open"})
	n.Notify(context.Background(), notify.Event{Kind: notify.KindPending, Summary: "waits"})
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(all.got()) != 3 || len(breakers.got()) != 1 || !strings.Contains(breakers.got()[0], "breaker_open") {
		t.Errorf("all got %d, breakers got %q", len(all.got()), breakers.got())
	}
}

// TestNotifyNeverBlocks: with the webhook stuck, Notify still returns at once; the queue
// keeps what fits and the rest is dropped.
func TestNotifyNeverBlocks(t *testing.T) {
	entered, release := make(chan struct{}, 16), make(chan struct{})
	var mu sync.Mutex
	n0 := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n0++
		mu.Unlock()
		entered <- struct{}{}
		<-release
	}))
	defer ts.Close()
	n := notify.New([]notify.Webhook{{URL: ts.URL}}, notify.WithQueue(2), notify.WithBackOff(instant))
	n.Notify(context.Background(), deny)
	<-entered // the worker is stuck delivering the first
	for range 9 {
		n.Notify(context.Background(), deny) // 2 queued, 7 dropped
	}
	close(release)
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n0 != 3 {
		t.Errorf("%d deliveries, want 3 (one in flight, two queued)", n0)
	}
}

func TestSlackBody(t *testing.T) {
	e := notify.Event{Kind: notify.KindDeny, Summary: "Runs curl <https://evil.example|click> & <!channel>", Host: "claude", DecidedBy: "rule:net.curl-pipe", ID: "ab12"}
	b, err := notify.Body(notify.FormatSlack, e)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Text string }
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := "*guardian deny*: Runs curl &lt;https://evil.example|click&gt; &amp; &lt;!channel&gt;\nby `rule:net.curl-pipe` · host `claude` · id `ab12`"
	if got.Text != want {
		t.Errorf("slack text\n%s\nwant\n%s", got.Text, want)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://hooks.slack.com/services/T000/B000/XXXXSECRET": "https://hooks.slack.com/…",
		"https://example.com/?token=abc":                        "https://example.com/…",
		"http://127.0.0.1:9000":                                 "http://127.0.0.1:9000",
		"not a url":                                             "(webhook URL)",
	} {
		if got := notify.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestErrorsRedacted: a delivery error in the log never shows the webhook's secret path.
func TestErrorsRedacted(t *testing.T) {
	var log strings.Builder
	var mu sync.Mutex
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return log.Write(p) })
	n := notify.New([]notify.Webhook{{URL: "http://127.0.0.1:1/services/SECRET-PATH"}}, notify.WithBackOff(instant),
		notify.WithLogger(newTextLogger(w)))
	n.Notify(context.Background(), deny)
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(log.String(), "notification not delivered") || strings.Contains(log.String(), "SECRET") {
		t.Errorf("log %q: want the failure, without the URL's path", log.String())
	}
}
