// Package approval holds the requests guardian would ask about while a person answers them
// from outside the agent's host, and the grants those answers leave behind.
//
// A host that cannot prompt (claude -p, codex exec, CI, a background sub-agent) turns guardian's
// ask into a silent deny. When a hook asks guardian serve to hold such a request, the serve
// puts a Pending approval into a Store, waits for an answer (bounded below the hook's own
// deadline), and a person answers it with `guardian approve ID` or `guardian deny ID` from any
// terminal. An approval with a scope other than once becomes a Grant: later requests of the
// same exact shape, in the same session or project or anywhere, are allowed without asking
// again — never one the review rates high or critical. Every answer and every use of a grant
// is a record in the audit log, so the log says who decided and how long the agent waited.
//
// Store is the seam between the serve and where the state lives. FileStore keeps it in memory
// and journals every answer and grant to a file, so a restart loses neither; a shared store
// (Redis) can implement the same interface to let several serve replicas share one queue.
package approval
