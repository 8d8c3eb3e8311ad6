package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"
)

// rawRefKey marks, in the _meta of an elicitation the proxy sends to a stdio host, the
// top-level params to add on the way out. mcp-go's typed ElicitationParams have no room for
// Codex's codex_* params beside message and requestedSchema, and its typed result has no room
// for Codex's {"decision": …}; on stdio the proxy owns the byte stream, so it adds the first
// to the request and reads the second from the host's response. The key never reaches the
// host.
const rawRefKey = "guardian/raw-ref"

// rawStdio is the bookkeeping of those exchanges on one stdio downstream.
type rawStdio struct {
	mu    sync.Mutex
	extra map[string]map[string]json.RawMessage // ref → top-level params to add
	sent  map[string]string                     // JSON-RPC id of a sent request → its ref
	got   map[string]json.RawMessage            // ref → the host's raw result
	// waiting counts sent requests whose response has not been seen, so that reading a
	// line costs nothing when there are none.
	waiting atomic.Int64
}

func newRawStdio() *rawStdio {
	return &rawStdio{extra: map[string]map[string]json.RawMessage{}, sent: map[string]string{}, got: map[string]json.RawMessage{}}
}

// register arranges for extra to be added to the request carrying ref.
func (r *rawStdio) register(ref string, extra map[string]json.RawMessage) {
	r.mu.Lock()
	r.extra[ref] = extra
	r.mu.Unlock()
}

// take returns the host's raw result for ref (nil when none was seen) and forgets ref.
func (r *rawStdio) take(ref string) json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.got[ref]
	delete(r.got, ref)
	delete(r.extra, ref)
	for id, rf := range r.sent {
		if rf == ref {
			delete(r.sent, id)
			r.waiting.Add(-1)
		}
	}
	return res
}

// rewrite adds the registered params to a request line carrying a ref, and drops the ref.
func (r *rawStdio) rewrite(line []byte) ([]byte, bool) {
	var msg map[string]json.RawMessage
	if json.Unmarshal(line, &msg) != nil {
		return nil, false
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(msg["params"], &params) != nil {
		return nil, false
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(params["_meta"], &meta) != nil {
		return nil, false
	}
	ref := str(meta, rawRefKey)
	r.mu.Lock()
	defer r.mu.Unlock()
	extra, ok := r.extra[ref]
	if !ok || len(msg["id"]) == 0 {
		return nil, false
	}
	delete(meta, rawRefKey)
	for k, v := range extra {
		params[k] = v
	}
	if len(meta) == 0 {
		delete(params, "_meta")
	} else {
		params["_meta"] = mustJSON(meta)
	}
	msg["params"] = mustJSON(params)
	out, err := json.Marshal(msg)
	if err != nil {
		return nil, false
	}
	r.sent[string(msg["id"])] = ref
	r.waiting.Add(1)
	return append(out, '\n'), true
}

// observe records the result of a response line to a request that carried a ref.
func (r *rawStdio) observe(line []byte) {
	if r.waiting.Load() == 0 {
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != "" || len(msg.ID) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if ref, ok := r.sent[string(msg.ID)]; ok {
		delete(r.sent, string(msg.ID))
		r.waiting.Add(-1)
		r.got[ref] = msg.Result
	}
}

// rawWriter is the stdio downstream's output: whole messages, one Write each (mcp-go writes
// every message with a single Write), rewritten when they carry a ref. The proxy's own
// answers to what is not a message (checkFrame) go through it too, so writes are serialised.
type rawWriter struct {
	r  *rawStdio
	w  io.Writer
	mu *sync.Mutex
}

func (w rawWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !bytes.Contains(b, []byte(rawRefKey)) {
		return w.w.Write(b)
	}
	out, ok := w.r.rewrite(bytes.TrimRight(b, "\n"))
	if !ok {
		return w.w.Write(b)
	}
	if _, err := w.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// rawReader is the stdio downstream's input, read line by line so each response can be
// observed before mcp-go's server sees it, and what is not a JSON-RPC message answered
// (checkFrame) instead of reaching it.
type rawReader struct {
	r     *rawStdio
	in    *bufio.Reader
	reply io.Writer // where the answers of checkFrame go: the rawWriter
	buf   []byte
	err   error // returned once buf is drained
	line  []byte
}

func (rr *rawReader) Read(p []byte) (int, error) {
	for len(rr.buf) == 0 {
		if rr.err != nil {
			return 0, rr.err
		}
		rr.line, rr.err = rr.in.ReadBytes('\n')
		if reply, pass := checkFrame(rr.line); !pass {
			if reply != nil {
				if _, err := rr.reply.Write(reply); err != nil {
					return 0, err
				}
			}
			continue
		}
		rr.r.observe(rr.line)
		rr.buf = rr.line
	}
	n := copy(p, rr.buf)
	rr.buf = rr.buf[n:]
	return n, nil
}

// stdioRawKey marks the requests of the stdio downstream, on whose session the raw exchange
// works.
type stdioRawKey struct{}

func withStdioRaw(ctx context.Context, r *rawStdio) context.Context {
	return context.WithValue(ctx, stdioRawKey{}, r)
}

func stdioRawFrom(ctx context.Context) *rawStdio {
	r, _ := ctx.Value(stdioRawKey{}).(*rawStdio)
	return r
}
