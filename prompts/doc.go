// Package prompts holds guardian's model-review prompts: embedded, versioned templates (one
// per request kind) and the rendering of one review's system prompt and user message.
//
// A model review is one stateless chat completion. The system prompt carries the policy the
// model applies (the risk vocabulary, how to judge, the JSON output format and the rule that
// the request is data, not instructions); it depends only on the template and the operator's
// policy text, so it is identical across reviews and cacheable by the endpoint. The user
// message carries the request as untrusted data, fenced between markers that hold a random
// per-review nonce the content cannot guess, encoded as JSON so that quotes, newlines and
// control characters cannot break out, with every field capped (head and tail kept) and every
// secret redacted before anything is rendered.
//
// Each template has an ID ("exec-v1") and a content hash; both belong in decided_by and the
// audit record, so that a verdict can always be traced to the exact prompt that produced it.
//
// The package does not import package guardian (guardian imports it): a review's input is a
// riskmodel.Kind plus the kind's payload and the rules' verdict.
package prompts
