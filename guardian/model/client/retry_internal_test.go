package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"2", 2 * time.Second, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{now.Add(3 * time.Second).Format(http.TimeFormat), 3 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"99999999999", 24 * time.Hour, true},
	} {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCappedBody(t *testing.T) {
	rec := &attemptRecord{}
	b := &cappedBody{rc: io.NopCloser(bytes.NewReader(make([]byte, MaxResponseBytes))), left: MaxResponseBytes, rec: rec}
	if n, err := io.Copy(io.Discard, b); err != nil || n != MaxResponseBytes || rec.tooLarge {
		t.Fatalf("exactly the cap: %d, %v, %v", n, err, rec.tooLarge)
	}
	rec = &attemptRecord{}
	b = &cappedBody{rc: io.NopCloser(bytes.NewReader(make([]byte, MaxResponseBytes+1))), left: MaxResponseBytes, rec: rec}
	if n, err := io.Copy(io.Discard, b); !errors.Is(err, errResponseTooLarge) || n != MaxResponseBytes || !rec.tooLarge {
		t.Fatalf("one over the cap: %d, %v, %v", n, err, rec.tooLarge)
	}
}

// A request the client refused to send (go-openai's reasoning-model checks) fails the same way
// every time: it is not retried as if the network had dropped it.
func TestClassifyUnsentIsPermanent(t *testing.T) {
	deadline := time.Now().Add(time.Minute)
	err := fmt.Errorf("model: attempt 1: %w", openai.ErrReasoningModelLimitationsOther)
	if retry, _ := classify(context.Background(), err, &attemptRecord{}, deadline, time.Now()); retry {
		t.Error("an unsent request was retried")
	}
	if retry, _ := classify(context.Background(), errors.New("connection reset"), &attemptRecord{sent: true}, deadline, time.Now()); !retry {
		t.Error("a sent request that got no response must be retried")
	}
}
