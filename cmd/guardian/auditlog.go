package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
)

// auditLog is what guardian serve needs of the audit log: it records every decision before
// the decision is answered (guardian.Auditor), serves the newest records to GET /v1/decisions
// (server.DecisionSource), and is closed — flushed — once the server has drained.
type auditLog interface {
	guardian.Auditor
	server.DecisionSource
	Close() error
}

// openAudit is replaced at integration by the audit log package's opener.
func (a *app) openAudit(cmd *cobra.Command, cfg guardian.Config) (auditLog, error) {
	return newMemoryAudit(memoryAuditSize), nil
}

// memoryAuditSize is how many records the stand-in audit log keeps.
const memoryAuditSize = 1000

// memoryAudit is a stand-in audit log until the real one lands: it keeps the newest records in
// memory, so nothing survives the process. Its records hold a digest of the request, never
// the request itself, so no secret from a command can end up in GET /v1/decisions.
type memoryAudit struct {
	mu     sync.Mutex
	recs   []json.RawMessage // ring buffer, next is the oldest once full
	next   int
	full   bool
	closed bool
}

func newMemoryAudit(size int) *memoryAudit { return &memoryAudit{recs: make([]json.RawMessage, size)} }

// memoryRecord is one stand-in audit record.
type memoryRecord struct {
	Time      string          `json:"time"`
	Kind      string          `json:"kind"`
	Digest    string          `json:"request_sha256"`
	Caller    guardian.Caller `json:"caller"`
	Decision  string          `json:"decision"`
	Status    string          `json:"status"`
	DecidedBy string          `json:"decided_by"`
	LatencyMS float64         `json:"latency_ms"`
}

// Audit records e.
func (m *memoryAudit) Audit(_ context.Context, e guardian.AuditEntry) error {
	req, err := json.Marshal(e.Request)
	if err != nil {
		return fmt.Errorf("audit: encode the request: %w", err)
	}
	sum := sha256.Sum256(req)
	rec, err := json.Marshal(memoryRecord{Time: e.Time.UTC().Format("2006-01-02T15:04:05.000000Z07:00"), Kind: string(e.Request.Kind),
		Digest: hex.EncodeToString(sum[:]), Caller: e.Caller, Decision: e.Result.Decision.String(), Status: string(e.Result.Status),
		DecidedBy: e.Result.DecidedBy, LatencyMS: float64(e.Latency.Microseconds()) / 1000})
	if err != nil {
		return fmt.Errorf("audit: encode the record: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errors.New("audit: the log is closed")
	}
	m.recs[m.next] = rec
	m.next = (m.next + 1) % len(m.recs)
	m.full = m.full || m.next == 0
	return nil
}

// Recent returns up to n records, newest last.
func (m *memoryAudit) Recent(_ context.Context, n int) ([]json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("audit: the log is closed")
	}
	all := m.recs[:m.next]
	if m.full {
		all = append(append([]json.RawMessage(nil), m.recs[m.next:]...), m.recs[:m.next]...)
	}
	return append([]json.RawMessage(nil), all[max(0, len(all)-n):]...), nil
}

// Close ends the log; later Audit calls fail, so no decision is answered unrecorded.
func (m *memoryAudit) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
