// Package audit is guardian's tamper-evident audit log: an append-only JSONL file holding one
// record for every decision guardian answered, with the request (secrets redacted), the
// decision, its status, what decided it, the assessment, the latency, the token usage and the
// caller (host, session, turn, agent).
//
// # Records
//
// Each line is one JSON object whose keys come in this order: id, time, digest, kind, request,
// decision, status, decided_by, assessment, latency_ms, usage (only when a model answered),
// caller, prev, hash. Strings from requests are JSON-escaped, so a line never holds a raw
// newline, carriage return, escape sequence or U+2028: a request cannot forge a record or
// paint a terminal.
//
// # The hash chain
//
// Let L be a line without its final "\n". L always ends in
//
//	,"hash":"sha256:<64 lowercase hex digits>"}
//
// Remove that suffix and append "}": the result B is the record without its hash, byte for
// byte as it was hashed. Then
//
//	hash = "sha256:" + hex(SHA-256(B))
//
// and every record's "prev" is the "hash" of the record before it ("" for the first record of
// a log). Checking needs no JSON re-encoding, so any tool can verify a log; in a shell:
//
//	line=$(sed -n 5p audit.jsonl)
//	printf '%s}' "${line%,\"hash\":*}" | sha256sum   # equals the line's hash
//
// Changing a record breaks its hash; deleting, reordering or inserting records breaks the prev
// link of the record after the change. Cutting records off the end of the log cannot be seen
// from the log alone: keep the last hash (guardian audit verify prints it) somewhere else to
// detect that.
//
// # Files
//
// Several processes may append to one log at once: each append holds an exclusive flock on
// the sidecar file <log>.lock, and continues the chain from the last record on disk. When
// the next record would make the file larger than the maximum size, the file is renamed to
// <log>.<UTC timestamp> (fixed width, so names sort in chain order) and a new file is started
// whose first record's prev is the last hash of the renamed one; guardian never deletes a
// rotated file. A line cut short by a crash (a torn tail: bytes after the last "\n") is moved
// to <log>.torn-<unix time> by the next append, which then continues the chain from the last
// complete record; nothing is lost, and no record is glued onto a fragment.
//
// Append returns only once its record is on disk (written and fsynced). With SyncBatch the
// records of concurrent appenders are written and fsynced together (group commit), which
// keeps that promise at a fraction of the cost per record.
package audit
