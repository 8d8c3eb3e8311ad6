// Package client is guardian's model reviewer: it implements guardian.Reviewer with one
// fresh-context chat completion per request against any OpenAI-compatible endpoint (OpenAI,
// Azure OpenAI, Ollama, vLLM, llama.cpp server), using package prompts for the messages and
// package model for the output contract (Schema, ParseChoice).
//
// What it guarantees, because the pipeline relies on it: one deadline (the ctx's) covers every
// attempt and wait; only 408/409/429/5xx, network errors and attempt timeouts are retried, with
// backoff and Retry-After honoured when it fits; a server that rejects response_format
// json_schema is switched to json_object (schema in the prompt) once and remembered; and every
// failure is a *guardian.ReviewError (timeout, unavailable, bad_output) with the zero Review,
// so no error can become an allow. Spans and metrics go to the configured otel providers and
// are no-ops by default.
//
// It lives in its own package rather than in package model because package prompts' internal
// tests import package model (for its Schema), and this package must import prompts.
package client
