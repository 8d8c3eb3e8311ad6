#!/usr/bin/env node
// client.mjs — an MCP client on the official TypeScript SDK that plays the host side of
// `guardian mcp-proxy` in the interop tests (see docs/mcp-interop.md).
//
//   node client.mjs [--scenario NAME] [--marker PATH] [--timeout-ms N] -- CMD ARGS…
//   node client.mjs [--scenario NAME] [--marker PATH] [--timeout-ms N] --url URL
//
// It starts CMD over stdio (or connects to a streamable-HTTP URL), declares the elicitation
// capability (form mode), runs the scenario's steps one after the other, answers every
// elicitation/create it receives with the answer scripted for the step that is running, and
// prints ONE JSON document to stdout:
//
//   { scenario, transport, server: {info, capabilities, instructions},
//     listing: {tools, resources, resourceTemplates, prompts} (each {items} or {error}),
//     steps: [{name, op, tool|uri|prompt, arguments, answer, result, value, error,
//              elicitations: [{params, message, _meta, requestedSchema, extra,
//                              sdk_valid, sdk_error, answer}]}],
//     unexpected_elicitations: [...],   // any that arrived while no step ran
//     error }                           // set only when the run itself failed
//
// `result` is the raw JSON-RPC result (read with the SDK's loose ResultSchema: nothing
// stripped); `value` is the first text content parsed as JSON when it is JSON. `params` of a
// recorded elicitation is exactly what arrived; `extra` holds its top-level keys other than
// message/requestedSchema/_meta/mode (where Codex's exec-approval puts codex_*). `sdk_valid`
// says whether the SDK's own ElicitRequestSchema accepts the request, as a host on the SDK
// would require.
//
// The exit status is 0 whenever the document was printed (step failures are in it), 1 when
// the run could not be set up, 2 on a usage error.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  McpError,
  ReadResourceResultSchema,
  RequestSchema,
  ResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

// ElicitRequestSchema with its params replaced by the SDK's loose request params: the
// handler sees every param exactly as sent (ElicitRequestSchema itself strips unknown keys
// such as codex_command).
const RawElicitRequestSchema = ElicitRequestSchema.extend({ params: RequestSchema.shape.params });

// The marker every scripted host answer carries in its _meta, so a test can tell the host's
// answer from one guardian made up.
const HOST_MARK = { "interop/answered_by": "host" };

const accept = (content = {}) => ({ action: "accept", content, _meta: { ...HOST_MARK } });
const decline = () => ({ action: "decline", _meta: { ...HOST_MARK } });
const cancel = () => ({ action: "cancel" });
// A JSON-RPC error instead of a result: the host failed to answer.
const hostError = () => ({ error: { code: -32603, message: "interop host failed to show the prompt" } });

const call = (name, tool, answer, args = {}) => ({ name, op: "call", tool, arguments: args, answer });

// Scenarios. A step's answer is what the host says to every elicitation that arrives while
// the step runs. Steps that guardian should settle alone answer the opposite of guardian's
// expected decision, so a forwarded request shows up as a wrong result, not just as a count.
function scenarios(marker) {
  return {
    // Opted-in approval requests: allow, deny, and ask with each host answer.
    approvals: {
      steps: [
        call("allow", "approve_read_note", decline()),
        call("deny", "approve_delete_database", accept()),
        call("ask-accept", "approve_notebooks_destroy", accept()),
        call("ask-decline", "approve_notebooks_destroy", decline()),
        call("ask-cancel", "approve_notebooks_destroy", cancel()),
        call("ask-host-error", "approve_notebooks_destroy", hostError()),
      ],
    },
    // Malformed opt-ins: the host is asked (with guardian's note) and its answer stands.
    malformed: {
      steps: [
        call("empty-tool-name", "approve_empty_tool_name", accept()),
        call("params-not-object", "approve_params_not_object", accept()),
        call("tool-name-not-string", "approve_tool_name_not_string", decline()),
        call("wrong-kind", "approve_wrong_kind", accept()),
      ],
    },
    // Elicitations that do not opt in: passed through untouched both ways.
    plain: {
      steps: [
        call("ask-name", "ask_name", accept({ name: "Ada Lovelace", language: "en", age: 36, newsletter: false })),
        call("ask-color-decline", "ask_color", decline()),
        call("ask-color-cancel", "ask_color", cancel()),
      ],
    },
    // Codex exec-approval elicitations ({"decision": …} results).
    exec: {
      steps: [
        call("allow", "exec_approval_ls", { decision: "denied" }),
        call("deny", "exec_approval_rm_home", { decision: "approved" }),
        call("ask-accept", "exec_approval_force_push", accept()),
        call("ask-decline", "exec_approval_force_push", decline()),
        call("ask-cancel", "exec_approval_force_push", cancel()),
        call("ask-raw-decision", "exec_approval_force_push", { decision: "approved_for_session" }),
      ],
    },
    // The tools that act on the answer. A host that is asked accepts the touch and declines
    // the wipe, which is what guardian should decide on its own.
    markers: {
      steps: [
        call("touch", "touch_marker", accept(), { path: marker }),
        call("wipe", "wipe_marker", decline(), { path: marker }),
      ],
    },
    // A host without the elicitation capability: guardian's own decisions still reach the
    // upstream; what would need the human cannot be asked.
    "no-elicitation": {
      capabilities: {},
      steps: [
        call("allow", "approve_read_note", decline()),
        call("deny", "approve_delete_database", accept()),
        call("ask", "approve_notebooks_destroy", accept()),
      ],
    },
    // Listings, and the schema-fidelity tools called with arguments their schemas allow.
    list: {
      list: true,
      steps: [
        call("anyof-defs", "schema_anyof_defs", undefined, { selector: { name: "café ✓", exact: false }, limit: null }),
        call("kitchen-sink", "schema_kitchen_sink", undefined, {
          mode: null,
          version: 2,
          ratio: 0.000001,
          big: 9007199254740991,
          tags: ["a", "b-2"],
          where: [1.5, -2],
          target: { url: "https://example.com/x" },
          nested: { a: { n_1: 1 } },
          "x-trace.id": null,
        }),
      ],
    },
    // @modelcontextprotocol/server-everything: listings, an echo, resource reads, prompts.
    everything: {
      list: true,
      steps: [
        call("echo", "echo", undefined, { message: "hello from guardian interop — ✓ 日本語" }),
        call("get-sum", "get-sum", undefined, { a: 2, b: 40 }),
        { name: "read-static", op: "read", uri: "first-static-resource" },
        { name: "read-template", op: "read", uri: "demo://resource/dynamic/text/1" },
        { name: "prompt-simple", op: "prompt", prompt: "simple-prompt", arguments: {} },
        { name: "prompt-args", op: "prompt", prompt: "args-prompt", arguments: { city: "Zürich", state: "ZH" } },
      ],
    },
  };
}

function usage(msg) {
  process.stderr.write(
    `client.mjs: ${msg}\n` +
      "usage: node client.mjs [--scenario NAME] [--marker PATH] [--timeout-ms N] (-- CMD ARGS… | --url URL)\n",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { scenario: "list", marker: "", timeoutMs: 30_000, url: "", command: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--") {
      opts.command = argv.slice(i + 1);
      break;
    } else if (a === "--scenario") opts.scenario = value();
    else if (a === "--marker") opts.marker = value();
    else if (a === "--url") opts.url = value();
    else if (a === "--timeout-ms") opts.timeoutMs = Number(value());
    else usage(`unknown argument ${JSON.stringify(a)}`);
  }
  if (!opts.url === !opts.command.length) usage("give exactly one of -- CMD ARGS… and --url URL");
  if (!Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0) usage("--timeout-ms wants a positive number");
  return opts;
}

function errorOf(err) {
  return { code: err instanceof McpError || typeof err?.code === "number" ? err.code : null, message: String(err?.message ?? err) };
}

// check reports whether value is valid for the SDK schema: a listing or result the official
// client would reject is an interop failure even when its JSON looks right.
function check(schema, value) {
  const r = schema.safeParse(value);
  return r.success ? { sdk_valid: true } : { sdk_valid: false, sdk_error: String(r.error?.message ?? r.error).slice(0, 2000) };
}

function firstTextJSON(result) {
  const text = result?.content?.find?.((c) => c?.type === "text")?.text;
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// listAll pages through one list method; a server without the capability is recorded as such.
async function listAll(client, method, key, schema, timeout) {
  const items = [];
  let cursor;
  let valid = { sdk_valid: true };
  try {
    for (let page = 0; page < 100; page++) {
      const result = await client.request({ method, params: cursor ? { cursor } : {} }, ResultSchema, { timeout });
      const v = check(schema, result);
      if (!v.sdk_valid) valid = v;
      items.push(...(result[key] ?? []));
      cursor = result.nextCursor;
      if (!cursor) return { items, ...valid };
    }
    return { items, error: { code: null, message: `${method}: more than 100 pages` } };
  } catch (err) {
    return { error: errorOf(err) };
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const all = scenarios(opts.marker);
  const scenario = all[opts.scenario];
  if (!scenario) usage(`unknown scenario ${JSON.stringify(opts.scenario)}; known: ${Object.keys(all).join(", ")}`);
  if (opts.scenario === "markers" && !opts.marker) usage("scenario markers needs --marker PATH");

  const report = {
    scenario: opts.scenario,
    transport: opts.url ? "http" : "stdio",
    server: null,
    listing: null,
    steps: [],
    unexpected_elicitations: [],
  };

  const capabilities = scenario.capabilities ?? { elicitation: { form: {} } };
  const client = new Client({ name: "guardian-interop-client", version: "1.0.0" }, { capabilities });

  let current = null; // the step running now
  if (capabilities.elicitation) {
    // Registered on Protocol, not through Client.setRequestHandler: the Client wraps
    // elicitation handlers to strip unknown params and to insist on an ElicitResult, and this
    // host must record everything and be able to answer Codex's {"decision": …} shape.
    Protocol.prototype.setRequestHandler.call(client, RawElicitRequestSchema, async (request) => {
      const params = request.params ?? {};
      const { message, requestedSchema, _meta, mode, ...extra } = params;
      const rec = { params, message, _meta, requestedSchema, extra, ...check(ElicitRequestSchema, request) };
      const answer = current?.answer ?? cancel();
      rec.answer = answer;
      (current ? current.elicitations : report.unexpected_elicitations).push(rec);
      // A plain Error with a code: McpError would prefix its message with "MCP error N:".
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer;
    });
  }

  const transport = opts.url
    ? new StreamableHTTPClientTransport(new URL(opts.url))
    : new StdioClientTransport({
        command: opts.command[0],
        args: opts.command.slice(1),
        env: process.env, // the test sets the environment of everything below us
        stderr: "inherit",
      });

  let code = 0;
  try {
    await client.connect(transport, { timeout: opts.timeoutMs });
    report.server = {
      info: client.getServerVersion() ?? null,
      capabilities: client.getServerCapabilities() ?? null,
      instructions: client.getInstructions() ?? null,
    };

    const timeout = opts.timeoutMs;
    if (scenario.list) {
      report.listing = {
        tools: await listAll(client, "tools/list", "tools", ListToolsResultSchema, timeout),
        resources: await listAll(client, "resources/list", "resources", ListResourcesResultSchema, timeout),
        resourceTemplates: await listAll(
          client,
          "resources/templates/list",
          "resourceTemplates",
          ListResourceTemplatesResultSchema,
          timeout,
        ),
        prompts: await listAll(client, "prompts/list", "prompts", ListPromptsResultSchema, timeout),
      };
    }

    let timedOut = false;
    for (const step of scenario.steps) {
      const rec = { ...step, elicitations: [] };
      report.steps.push(rec);
      if (timedOut) {
        rec.error = { code: null, message: "skipped: an earlier step timed out" };
        continue;
      }
      current = rec;
      try {
        let req;
        let schema;
        if (step.op === "call") {
          req = { method: "tools/call", params: { name: step.tool, arguments: step.arguments } };
          schema = CallToolResultSchema;
        } else if (step.op === "read") {
          let uri = step.uri;
          if (uri === "first-static-resource") {
            uri = report.listing?.resources?.items?.[0]?.uri;
            if (!uri) throw new Error("no resource listed to read");
          }
          rec.uri = uri;
          req = { method: "resources/read", params: { uri } };
          schema = ReadResourceResultSchema;
        } else {
          req = { method: "prompts/get", params: { name: step.prompt, arguments: step.arguments } };
          schema = GetPromptResultSchema;
        }
        const result = await client.request(req, ResultSchema, { timeout });
        Object.assign(rec, { result, value: firstTextJSON(result) }, check(schema, result));
      } catch (err) {
        rec.error = errorOf(err);
        if (/timed out/i.test(rec.error.message)) timedOut = true;
      } finally {
        current = null;
      }
    }
  } catch (err) {
    report.error = `${opts.url ? `connect to ${opts.url}` : `run ${opts.command.join(" ")}`}: ${err?.stack ?? err}`;
    code = 1;
  }

  try {
    if (opts.url && transport.sessionId) await transport.terminateSession();
  } catch (err) {
    process.stderr.write(`client.mjs: terminating the HTTP session: ${err?.message ?? err}\n`);
  }
  await client.close().catch(() => {});
  process.stdout.write(JSON.stringify(report, null, 2) + "\n", () => process.exit(code));
}

main().catch((err) => {
  process.stderr.write(`client.mjs: ${err?.stack ?? err}\n`);
  process.exit(1);
});
