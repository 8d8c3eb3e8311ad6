package audit

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// MaxRecordBytes is the longest line the log writes or reads. A request is at most 256 KiB,
// but JSON escaping can grow it up to six times and the assessment quotes it again; a longer
// line is refused on write and reported as invalid on read, so that a corrupt file cannot make
// a reader buffer without bound.
const MaxRecordBytes = 16 << 20

// Record is one line of the audit log: one decision. It is the wire type; the JSON keys come
// in field order, and hash is always last (see the package documentation for how it is
// computed).
type Record struct {
	// ID identifies the record: 16 random hex digits. `guardian audit explain ID` finds it.
	ID string `json:"id"`
	// Time is when the review started, in UTC; it is written in RFC 3339 with nanoseconds.
	Time time.Time `json:"time"`
	// Digest is "sha256:<hex>" of the redacted request envelope {"kind":…,"request":…} as
	// guardian encodes it: equal requests have equal digests, whoever asked.
	Digest string `json:"digest"`
	// Kind is the request kind, "exec" or "mcp".
	Kind riskmodel.Kind `json:"kind"`
	// Request is the request object of that kind with its secrets redacted.
	Request json.RawMessage `json:"request"`
	// Decision, Status and DecidedBy are the result's: what was decided, how it came about
	// and what decided it (rule id, model and prompt version, fallback, cache, breaker).
	Decision  riskmodel.Decision `json:"decision"`
	Status    guardian.Status    `json:"status"`
	DecidedBy string             `json:"decided_by"`
	// Assessment is the result's assessment, its free text redacted again.
	Assessment riskmodel.Assessment `json:"assessment"`
	// LatencyMS is how long the decision took, in milliseconds.
	LatencyMS float64 `json:"latency_ms"`
	// Usage is the model's token usage; absent when no model answered.
	Usage *guardian.Usage `json:"usage,omitempty"`
	// Reasoning is the model's reasoning before its verdict, redacted again and capped;
	// absent when no model answered or it gave none.
	Reasoning string `json:"reasoning,omitempty"`
	// Caller is who asked: host, session, turn and agent, each omitted when unknown.
	Caller guardian.Caller `json:"caller"`
	// Policy is the digest of the user config in force ("sha256:<hex>"); absent when the
	// recorder did not know it.
	Policy string `json:"policy,omitempty"`
	// Prev is the hash of the record before this one ("" for the first record of a log).
	Prev string `json:"prev"`
	// Hash is "sha256:<hex>" of the record without its hash. Append fills it in; it is
	// ignored on the way in.
	Hash string `json:"hash,omitempty"`
}

// NewRecord turns a decision handed to an Auditor into a record: the request and the
// assessment's free text are redacted, the latency is converted to milliseconds, and the
// digest is computed. ID, Prev and Hash are left for Append, which owns the chain.
func NewRecord(e guardian.AuditEntry) (Record, error) {
	payload, err := redactedPayload(e.Request)
	if err != nil {
		return Record{}, err
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return Record{}, fmt.Errorf("audit: encode the %s request: %w", e.Request.Kind, err)
	}
	digest, err := digestOfRequest(e.Request.Kind, raw)
	if err != nil {
		return Record{}, err
	}
	return Record{
		Time:       e.Time,
		Digest:     digest,
		Kind:       e.Request.Kind,
		Request:    raw,
		Decision:   e.Result.Decision,
		Status:     e.Result.Status,
		DecidedBy:  e.Result.DecidedBy,
		Assessment: redactAssessment(e.Result.Assessment),
		LatencyMS:  float64(e.Latency) / float64(time.Millisecond),
		Usage:      e.Result.Usage,
		Reasoning:  redactReasoning(e.Result.Reasoning),
		Caller:     e.Caller,
		Policy:     e.Policy,
	}, nil
}

// envelope is the {"kind","request"} form the digest is computed over: the same bytes
// guardian.Request.MarshalJSON writes.
type envelope struct {
	Kind    riskmodel.Kind  `json:"kind"`
	Request json.RawMessage `json:"request"`
}

// digestOfRequest is the digest of the envelope {"kind":kind,"request":raw}.
func digestOfRequest(kind riskmodel.Kind, raw json.RawMessage) (string, error) {
	b, err := json.Marshal(envelope{Kind: kind, Request: raw})
	if err != nil {
		return "", fmt.Errorf("audit: encode the request envelope: %w", err)
	}
	return digestOf(b), nil
}

// digestOf is "sha256:<hex>" of b.
func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hashPrefix + hex.EncodeToString(sum[:])
}

// newID returns 16 random hex digits. crypto/rand does not fail (it aborts the process
// rather than return predictable bytes).
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

const (
	hashPrefix = "sha256:"
	// hashKey starts the suffix every line ends in: ,"hash":"sha256:<64 hex>"}
	hashKey = `,"hash":"` + hashPrefix
	// suffixLen is the length of that suffix.
	suffixLen = len(hashKey) + sha256.Size*2 + len(`"}`)
)

// emptyPrevTail is how every record's encoding ends before its prev is known: prev is the
// last field before hash, so a record can be encoded by the goroutine that appends it and the
// single writer only splices in the previous record's hash.
const emptyPrevTail = `"prev":""}`

// encodeBody encodes rec with an empty prev and without its hash, for encodeLine.
func encodeBody(rec Record) ([]byte, error) {
	rec.Prev, rec.Hash = "", ""
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("audit: encode the record: %w", err)
	}
	if !bytes.HasSuffix(b, []byte(emptyPrevTail)) {
		return nil, fmt.Errorf("audit: encode the record: it does not end in %s", emptyPrevTail)
	}
	return b, nil
}

// encodeLine returns the line that records a body from encodeBody with prev filled in, "\n"
// included, and the record's hash. The bytes are exactly json.Marshal of the record with that
// prev (a hash needs no escaping), so the scheme in the package doc holds.
func encodeLine(body []byte, prev string) ([]byte, string, error) {
	if strings.ContainsAny(prev, `"\`) {
		return nil, "", fmt.Errorf("audit: prev %q is not a hash", prev)
	}
	b := make([]byte, 0, len(body)+len(prev)+suffixLen+1)
	b = append(b, body[:len(body)-len(emptyPrevTail)]...)
	b = append(b, `"prev":"`...)
	b = append(b, prev...)
	b = append(b, `"}`...)
	h := digestOf(b)
	line := b[:len(b)-1]
	line = append(line, `,"hash":"`...)
	line = append(line, h...)
	line = append(line, "\"}\n"...)
	return line, h, nil
}

// LineHashes returns the hash a log line (without its "\n") claims and the hash its content
// actually has: they differ when the record was changed after it was written. ok is false
// when the line does not end in a hash. It is the per-record half of Verify, for tools that
// show one record.
func LineHashes(line []byte) (claimed, computed string, ok bool) { return splitLine(line) }

// splitLine takes one line (without its "\n") apart: the hash it claims and the hash its body
// actually has. ok is false when the line does not end in the hash suffix.
func splitLine(line []byte) (claimed, computed string, ok bool) {
	hx, ok := suffixHex(line)
	if !ok {
		return "", "", false
	}
	h := sha256.New()
	h.Write(line[:len(line)-suffixLen])
	h.Write([]byte("}"))
	return hashPrefix + string(hx), hashPrefix + hex.EncodeToString(h.Sum(nil)), true
}

// claimedHash returns the hash a line claims without checking it: what the prev of the
// record after it must be.
func claimedHash(line []byte) (string, bool) {
	hx, ok := suffixHex(line)
	if !ok {
		return "", false
	}
	return hashPrefix + string(hx), true
}

// suffixHex returns the hex digits of the hash suffix a line ends in.
func suffixHex(line []byte) ([]byte, bool) {
	n := len(line)
	if n < suffixLen+1 || line[0] != '{' {
		return nil, false
	}
	suf := line[n-suffixLen:]
	if !bytes.HasPrefix(suf, []byte(hashKey)) || !bytes.HasSuffix(suf, []byte(`"}`)) {
		return nil, false
	}
	hx := suf[len(hashKey) : len(suf)-2]
	for _, c := range hx {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return nil, false
		}
	}
	return hx, true
}
