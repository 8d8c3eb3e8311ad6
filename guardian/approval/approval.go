package approval

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// The errors of a Store. They are wrapped with what was looked for, so test with errors.Is.
var (
	// ErrNotFound: no approval or grant has that id (or id prefix).
	ErrNotFound = errors.New("not found")
	// ErrAmbiguous: the id prefix matches more than one approval or grant.
	ErrAmbiguous = errors.New("ambiguous id")
	// ErrSettled: the approval was already answered, or was answered and delivered.
	ErrSettled = errors.New("already answered")
	// ErrScope: the answer's scope cannot apply to this approval (a grant for a request rated
	// high or critical, a session grant without a session, a project grant without a project).
	ErrScope = errors.New("scope not allowed")
)

// State is where an approval stands.
type State string

// The states of an approval. open → answered → delivered; open → expired (nobody answered
// before the hook stopped waiting) → answered (a late answer, which a retry of the same
// request in the same session picks up).
const (
	StateOpen      State = "open"      // the hook is waiting for an answer
	StateAnswered  State = "answered"  // a person answered; the hook has not taken the answer yet
	StateDelivered State = "delivered" // the hook took the answer
	StateExpired   State = "expired"   // nobody answered before the hook stopped waiting
)

// Scope says how far an approval reaches beyond the request that asked.
type Scope string

// The scopes of an answer. A deny is always once: guardian's rules decide what is denied.
const (
	ScopeOnce    Scope = "once"    // this request only
	ScopeSession Scope = "session" // the same request again in the same host session
	ScopeProject Scope = "project" // the same request again in the same project
	ScopeAlways  Scope = "always"  // the same request again anywhere
)

// ParseScope reads a scope; "" is once.
func ParseScope(s string) (Scope, error) {
	switch sc := Scope(s); sc {
	case "":
		return ScopeOnce, nil
	case ScopeOnce, ScopeSession, ScopeProject, ScopeAlways:
		return sc, nil
	}
	return "", fmt.Errorf("unknown scope %q: use once, session, project or always", s)
}

// DefaultGrantTTL is how long a grant lasts when the answer sets no ttl, per scope: a session
// grant outlives no realistic session, project and always grants last a month, after which the
// person is asked again. Grants are reviewable and revocable before that (guardian grants).
func DefaultGrantTTL(s Scope) time.Duration {
	if s == ScopeSession {
		return 24 * time.Hour
	}
	return 30 * 24 * time.Hour
}

// Pending is a request guardian would ask about, held while a person answers it. Its JSON
// form is the wire format of GET /v1/pending (docs/serve.md): keys are stable. Everything a
// person is shown is redacted as in the audit log.
type Pending struct {
	// ID is short random lowercase hex; any unambiguous prefix names it.
	ID string `json:"id"`
	// State is open, answered, delivered or expired.
	State State `json:"state"`
	// Created is when the request started waiting; Expires when its hook stops waiting.
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	// Kind and Request are the request, its secrets redacted (as in the audit log); Shape is
	// the one line a person reads: the normalised command, or server/tool and arguments.
	Kind    riskmodel.Kind  `json:"kind"`
	Request json.RawMessage `json:"request"`
	Shape   string          `json:"shape"`
	// Key identifies the exact request shape (a digest of the unredacted shape): a grant or a
	// late answer applies to requests with the same key.
	Key string `json:"key"`
	// Project is the request's project directory (the repository root of an exec request's
	// cwd, an MCP request's first workspace); "" when it has none.
	Project string `json:"project,omitempty"`
	// Caller is who asked: host, session, turn, agent.
	Caller guardian.Caller `json:"caller"`
	// AskedBy is what decided ask (rule:<id>, rules, model:…); Assessment is the review's
	// assessment, redacted.
	AskedBy    string               `json:"asked_by"`
	Assessment riskmodel.Assessment `json:"assessment"`
	// Answer is the person's answer, once there is one.
	Answer *Answer `json:"answer,omitempty"`
}

// Answer is a person's answer to a pending approval.
type Answer struct {
	// Decision is allow or deny.
	Decision riskmodel.Decision `json:"decision"`
	// Scope is once for a deny; for an allow, how far it reaches (a grant for other scopes).
	Scope Scope `json:"scope"`
	// By names who answered (guardian approve --as NAME, else the user name).
	By string `json:"by"`
	// Reason is the person's reason, shown to the agent on a deny.
	Reason string `json:"reason,omitempty"`
	// Time is when the answer was given.
	Time time.Time `json:"time"`
	// Grant is the id of the grant an allow with a wider scope created.
	Grant string `json:"grant,omitempty"`
	// TTL is how long that grant lasts (0: DefaultGrantTTL). Not part of the wire form.
	TTL time.Duration `json:"-"`
}

// Grant is a standing allow a person gave by approving with a scope other than once. It
// applies to a later request with the same Key in its scope, until it expires or is revoked,
// and never to a request the review rates high or critical.
type Grant struct {
	ID    string `json:"id"`
	Scope Scope  `json:"scope"`
	// Kind, Shape and Key are the request shape the grant allows (Shape redacted, for people).
	Kind  riskmodel.Kind `json:"kind"`
	Shape string         `json:"shape"`
	Key   string         `json:"key"`
	// Project (scope project) and Host and Session (scope session) bound where it applies.
	Project string `json:"project,omitempty"`
	Host    string `json:"host,omitempty"`
	Session string `json:"session,omitempty"`
	// By, Created and Expires: who granted it, when, and until when.
	By      string    `json:"by"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	// From is the approval it came from; Reason the person's reason, if any.
	From   string `json:"from,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Applies reports whether g covers the request q describes.
func (g Grant) Applies(q GrantQuery) bool {
	if g.Key != q.Key || !q.Now.Before(g.Expires) {
		return false
	}
	switch g.Scope {
	case ScopeSession:
		return q.Session != "" && g.Session == q.Session && g.Host == q.Host
	case ScopeProject:
		return q.Project != "" && g.Project == q.Project
	case ScopeAlways:
		return true
	}
	return false
}

// newID returns n random lowercase hex digits.
func newID(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

// idLen is the length of approval and grant ids: 8 hex digits are short enough to type and,
// with the prefix match, rarely need all of them.
const idLen = 8

// resolve finds the one id among ids that is id or starts with it.
func resolve(what, id string, ids func(yield func(string) bool)) (string, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" {
		return "", fmt.Errorf("%s id is empty: %w", what, ErrNotFound)
	}
	var found []string
	for cand := range ids {
		if cand == id {
			return cand, nil
		}
		if strings.HasPrefix(cand, id) {
			found = append(found, cand)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no %s %q: %w", what, id, ErrNotFound)
	case 1:
		return found[0], nil
	}
	slices.Sort(found)
	if len(found) > 5 {
		found = append(found[:5], "…")
	}
	return "", fmt.Errorf("%s %q matches %s: give more of the id: %w", what, id, strings.Join(found, ", "), ErrAmbiguous)
}

// DefaultPath is where guardian serve journals approvals and grants:
// $XDG_STATE_HOME/guardian/approvals.jsonl, else ~/.local/state/guardian/approvals.jsonl; ""
// when neither variable is set to an absolute path.
func DefaultPath(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "guardian", "approvals.jsonl")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "guardian", "approvals.jsonl")
	}
	return ""
}
