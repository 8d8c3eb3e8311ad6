// Package filelock holds the advisory file lock (flock) that lets several guardian processes
// — hooks run once per tool call, a serve, the audit CLI — share a file: the audit log and the
// hooks' breaker state. Where flock is missing, Lock fails rather than let two processes
// interleave their writes.
package filelock
