package approval

import (
	"context"
	"iter"
	"time"
)

// Store holds pending approvals and grants. FileStore is the local implementation; a shared
// one (Redis, with pub/sub to wake waiters on other replicas) implements the same methods.
// Ids given to the lookup methods may be any unambiguous prefix (ErrNotFound, ErrAmbiguous).
// Every method is safe for concurrent use and honours ctx.
type Store interface {
	// Put adds an open approval. Its ID must be new.
	Put(ctx context.Context, p Pending) error
	// Get returns the approval that id names.
	Get(ctx context.Context, id string) (Pending, error)
	// List returns the open approvals, oldest first; with all, also those answered, delivered
	// or expired that the store still keeps.
	List(ctx context.Context, all bool) ([]Pending, error)
	// OpenCount is how many approvals are open, for the bound on waiting requests.
	OpenCount(ctx context.Context) (int, error)
	// Answer records a person's answer to an open or expired approval and wakes its waiter;
	// ErrSettled when it already has one. A grant the answer creates is stored with it
	// (AddGrant semantics) before waiters wake. It returns the approval as answered.
	Answer(ctx context.Context, id string, a Answer, g *Grant) (Pending, error)
	// Wait blocks until the approval (a full id) is no longer open, or ctx ends (ctx.Err()).
	Wait(ctx context.Context, id string) (Pending, error)
	// Deliver marks an answered approval as taken by its hook; Expire marks an open one as
	// no longer waited on. Both return the approval as it then stands: a caller whose Expire
	// finds it answered (the answer raced the deadline) uses the answer.
	Deliver(ctx context.Context, id string) (Pending, error)
	Expire(ctx context.Context, id string) (Pending, error)
	// Claim finds an answered, undelivered approval with key from the same host session — a
	// late answer to a request whose hook stopped waiting — marks it delivered and returns it.
	Claim(ctx context.Context, key, host, session string, now time.Time) (Pending, bool, error)

	// AddGrant stores a grant; Grants lists the unexpired ones, oldest first; RevokeGrant
	// removes the one id names and returns it.
	AddGrant(ctx context.Context, g Grant) error
	Grants(ctx context.Context, now time.Time) ([]Grant, error)
	RevokeGrant(ctx context.Context, id string) (Grant, error)
	// MatchGrant returns an unexpired grant that covers a request (Grant.Applies).
	MatchGrant(ctx context.Context, q GrantQuery) (Grant, bool, error)
}

// GrantQuery is a request as MatchGrant looks it up.
type GrantQuery struct {
	Key, Project, Host, Session string
	Now                         time.Time
}

// ResolveID finds the one id among ids that is id or an unambiguous prefix of it (ErrNotFound,
// ErrAmbiguous), as every Store resolves the ids given to its lookup methods; what names the
// kind of id ("approval", "grant") in the error.
func ResolveID(what, id string, ids iter.Seq[string]) (string, error) {
	return resolve(what, id, ids)
}
