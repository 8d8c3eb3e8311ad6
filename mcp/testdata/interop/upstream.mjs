#!/usr/bin/env node
// upstream.mjs — an MCP server on the official TypeScript SDK whose tools send scripted
// elicitations, so that `guardian mcp-proxy` can be tested against its contract by an
// implementation it shares no code with (see docs/mcp-interop.md).
//
//   node upstream.mjs                      serve one client over stdio
//   node upstream.mjs --listen HOST:PORT   serve streamable HTTP at http://HOST:PORT/mcp, one
//                                          Server per session; PORT 0 picks a free port; prints
//                                          "upstream listening on URL" to stderr once it listens
//
// Every elicitation tool sends exactly one `elicitation/create` and returns, as the JSON text
// of its only content item, exactly what that request returned: the raw result object (the
// result is read with the SDK's loose ResultSchema, so nothing is stripped or added). When the
// request fails, the tool result has isError: true and the text is {"error":{code,message}}.
//
// The low-level Server is used (not McpServer) because the tests need raw control: raw
// `elicitation/create` params (Codex's exec-approval puts codex_* keys beside `message`),
// results that are not ElicitResults ({"decision": …}), and hand-written JSON Schemas with
// anyOf/$defs that a zod-built schema would not reproduce verbatim.
//
// Nothing here touches the network; touch_marker and wipe_marker only ever create or delete
// the single file named by their `path` argument.

import { randomUUID } from "node:crypto";
import { writeFileSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:http";

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

// How long one elicitation may wait for its answer. Shorter than the client's per-call
// timeout, so a proxy that never answers shows up as this tool's error, not as a hang.
const ELICITATION_TIMEOUT_MS = 20_000;

// The schema every Codex approval elicitation asks for: nothing but the action.
const EMPTY_FORM = { type: "object", properties: {} };

// approvalMeta builds the `_meta` of a Codex-style approval request for one MCP tool call
// (codex_request_type "approval_request", codex_approval_kind "mcp_tool_call"), in the shape
// Codex's own approval prompts use (persist as a list, tool_params_display as name/value rows).
function approvalMeta({ connectorId, connectorName, connectorDescription, tool, title, description, params }) {
  return {
    codex_request_type: "approval_request",
    codex_approval_kind: "mcp_tool_call",
    tool_name: tool,
    tool_params: params,
    tool_title: title,
    tool_description: description,
    connector_id: connectorId,
    connector_name: connectorName,
    connector_description: connectorDescription,
    persist: ["session", "always"],
    tool_params_display:
      params !== null && typeof params === "object" && !Array.isArray(params)
        ? Object.entries(params).map(([name, value]) => ({ name, display_name: name, value }))
        : [],
  };
}

// approval builds the params of an opted-in approval elicitation.
function approval(meta, message) {
  return { message, requestedSchema: EMPTY_FORM, _meta: meta };
}

// The benign call: reading one note. guardian's rules allow it (mcp.read, low, read_only).
const READ_NOTE = {
  connectorId: "connector_notes",
  connectorName: "notes",
  connectorDescription: "The user's personal notes.",
  tool: "read_note",
  title: "Read note",
  description: "Read one note by id. Read-only: nothing is changed.",
  params: { id: "42" },
};

// The destructive call: deleting the production database. Denied (critical).
const DELETE_DATABASE = {
  connectorId: "connector_cloud",
  connectorName: "cloud",
  connectorDescription: "Manage the team's cloud databases.",
  tool: "delete_database",
  title: "Delete database",
  description: "Permanently delete a database and all its data.",
  params: { database: "prod", force: true },
};

// The call in between: an umbrella tool whose verb destroys notebooks. Handed to the human
// (ask, high, data_deletion).
const NOTEBOOKS_DESTROY = {
  connectorId: "connector_posthog",
  connectorName: "posthog",
  connectorDescription: "Product analytics.",
  tool: "exec",
  title: "Run a PostHog command",
  description: "Run one PostHog API command, named by `command`.",
  params: { command: "notebooks-destroy", id: 42 },
};

// The connector of the marker tools: a local file tool, which is what lets guardian's rules
// see the marker path as a file written in a temporary directory.
const MARKER_FILES = {
  connectorId: "marker_files",
  connectorName: "marker files",
  connectorDescription: "Creates and removes the test's marker files.",
};

function allowMessage(c) {
  return `Allow the ${c.connectorName} connector to run tool "${c.tool}"?`;
}

// execApproval builds the params of a Codex exec-approval elicitation as `codex mcp-server`
// sends them: the codex_* keys sit at the top level of params, beside message and
// requestedSchema, and the expected reply is {"decision": …}, not an ElicitResult.
function execApproval(n, argv, parsed, cwd = "/home/dev/project") {
  const shown = argv.map((a) => (/^[\w@%+=:,./~-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(" ");
  return {
    message: `Allow Codex to run \`${shown}\` in \`${cwd}\`?`,
    requestedSchema: EMPTY_FORM,
    threadId: "019a0000-0000-7000-8000-0000000000a1",
    codex_elicitation: "exec-approval",
    codex_mcp_tool_call_id: `mcp-tool-call-${n}`,
    codex_event_id: `event-${n}`,
    codex_call_id: `call_${n}`,
    codex_command: argv,
    codex_cwd: cwd,
    codex_parsed_cmd: parsed,
  };
}

const NO_ARGS = { type: "object", properties: {}, additionalProperties: false };
const PATH_ARG = {
  type: "object",
  properties: { path: { type: "string", description: "Absolute path of the marker file." } },
  required: ["path"],
  additionalProperties: false,
};

// elicitationTool is a tool that sends the elicitation params() and returns its raw result.
function elicitationTool(name, description, params) {
  return { name, description, inputSchema: NO_ARGS, run: async (_args, ctx) => ctx.elicit(params()) };
}

// The schema-fidelity tools' input schemas: a proxy must hand them to the host byte for byte
// in meaning (deep-equal after decoding), including keywords a typed Go struct would drop.
const ANYOF_DEFS_SCHEMA = {
  type: "object",
  description: "Look a record up either by its numeric id or by its name; the selector takes one of two shapes.",
  $defs: {
    byId: {
      type: "object",
      properties: { id: { type: "integer", minimum: 1, description: "Record id." } },
      required: ["id"],
      additionalProperties: false,
    },
    byName: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, description: "Record name." },
        exact: { type: "boolean", default: true },
      },
      required: ["name"],
      additionalProperties: false,
    },
  },
  properties: {
    selector: { anyOf: [{ $ref: "#/$defs/byId" }, { $ref: "#/$defs/byName" }], description: "Which record." },
    limit: { anyOf: [{ type: "integer", minimum: 1, maximum: 100 }, { type: "null" }], default: null },
  },
  required: ["selector"],
  additionalProperties: false,
};

const KITCHEN_SINK_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  title: "Kitchen sink",
  description: "Every JSON Schema keyword a proxy might drop — café, naïve, ✓, 日本語.",
  $defs: {
    tag: { type: "string", pattern: "^[a-z][a-z0-9-]{0,31}$" },
    point: {
      type: "array",
      prefixItems: [{ type: "number" }, { type: "number" }],
      items: false,
      minItems: 2,
    },
  },
  properties: {
    mode: { enum: ["fast", "safe", null], default: "safe" },
    version: { const: 2 },
    ratio: { type: "number", exclusiveMinimum: 0, maximum: 1, multipleOf: 0.000001 },
    big: { type: "integer", maximum: 9007199254740991 },
    when: { type: "string", format: "date-time", examples: ["2026-11-21T10:00:00Z"] },
    tags: { type: "array", items: { $ref: "#/$defs/tag" }, uniqueItems: true, maxItems: 8 },
    where: { $ref: "#/$defs/point" },
    target: {
      oneOf: [
        { type: "object", properties: { url: { type: "string", format: "uri" } }, required: ["url"] },
        { type: "object", properties: { file: { type: "string" } }, required: ["file"] },
      ],
    },
    options: {
      allOf: [
        { type: "object", properties: { retries: { type: "integer", minimum: 0 } } },
        { not: { required: ["forbidden"] } },
      ],
      if: { properties: { retries: { const: 0 } } },
      then: { description: "no retries" },
      else: { description: "some retries" },
    },
    "x-trace.id": { type: ["string", "null"], deprecated: true, readOnly: false },
    nested: {
      type: "object",
      additionalProperties: { type: "object", patternProperties: { "^n_": { type: "number" } } },
      propertyNames: { maxLength: 16 },
    },
  },
  required: ["mode"],
  dependentRequired: { ratio: ["version"] },
  "x-guardian-interop": { keep: ["unknown", "keywords"], depth: { of: { nesting: true } } },
};

const KITCHEN_SINK_OUTPUT = {
  type: "object",
  properties: { received: { type: "object", description: "The arguments as the server got them." } },
  required: ["received"],
};

// tools is the whole tool list, in listing order. Each run(args, ctx) returns a CallToolResult.
const tools = [
  // --- opted-in approval requests ---------------------------------------------------------
  elicitationTool(
    "approve_read_note",
    "Asks for approval (Codex approval_request) to read note 42 — a benign call; guardian allows it.",
    () => approval(approvalMeta(READ_NOTE), allowMessage(READ_NOTE)),
  ),
  elicitationTool(
    "approve_delete_database",
    "Asks for approval to delete the production database — a destructive call; guardian denies it.",
    () => approval(approvalMeta(DELETE_DATABASE), allowMessage(DELETE_DATABASE)),
  ),
  elicitationTool(
    "approve_notebooks_destroy",
    "Asks for approval to destroy PostHog notebook 42 — guardian hands it to the human (ask).",
    () => approval(approvalMeta(NOTEBOOKS_DESTROY), allowMessage(NOTEBOOKS_DESTROY)),
  ),

  // --- malformed opt-ins: benign content, so an auto-accept would be the tempting bug ------
  elicitationTool(
    "approve_empty_tool_name",
    "Malformed approval request: tool_name is the empty string.",
    () => approval({ ...approvalMeta(READ_NOTE), tool_name: "" }, allowMessage(READ_NOTE)),
  ),
  elicitationTool(
    "approve_params_not_object",
    "Malformed approval request: tool_params is a string, not an object.",
    () => approval({ ...approvalMeta(READ_NOTE), tool_params: "id=42" }, allowMessage(READ_NOTE)),
  ),
  elicitationTool(
    "approve_tool_name_not_string",
    "Malformed approval request: tool_name is a number.",
    () => approval({ ...approvalMeta(READ_NOTE), tool_name: 42 }, allowMessage(READ_NOTE)),
  ),
  elicitationTool(
    "approve_wrong_kind",
    "Malformed approval request: codex_approval_kind is not mcp_tool_call.",
    () => approval({ ...approvalMeta(READ_NOTE), codex_approval_kind: "patch_apply" }, allowMessage(READ_NOTE)),
  ),

  // --- plain elicitations that do not opt in ----------------------------------------------
  elicitationTool("ask_name", "A plain form elicitation (not an approval request) asking for the user's name.", () => ({
    message: "What is your name? (café ✓)",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", title: "Name", description: "Your full name", minLength: 1, maxLength: 100 },
        language: {
          type: "string",
          title: "Language",
          enum: ["en", "fr", "de"],
          enumNames: ["English", "Français", "Deutsch"],
          default: "en",
        },
        age: { type: "integer", title: "Age", minimum: 0, maximum: 150 },
        newsletter: { type: "boolean", title: "Newsletter", default: false },
      },
      required: ["name"],
    },
    _meta: { "example.com/trace_id": "trace-7", ui: { compact: true, order: ["name", "language"] } },
  })),
  elicitationTool("ask_color", "A plain form elicitation with no _meta at all.", () => ({
    message: "Which color should the chart use?",
    requestedSchema: {
      type: "object",
      properties: { color: { type: "string", enum: ["red", "green", "blue"] } },
      required: ["color"],
    },
  })),

  // --- Codex exec-approval elicitations ---------------------------------------------------
  elicitationTool("exec_approval_ls", "Codex exec-approval for `ls -la` — benign; guardian approves it.", () =>
    execApproval(1, ["ls", "-la"], [{ type: "list_files", cmd: "ls -la", path: null }]),
  ),
  elicitationTool("exec_approval_rm_home", "Codex exec-approval for `rm -rf ~/` — destructive; guardian denies it.", () =>
    execApproval(2, ["bash", "-lc", "rm -rf ~/"], [{ type: "unknown", cmd: "rm -rf ~/" }]),
  ),
  elicitationTool(
    "exec_approval_force_push",
    "Codex exec-approval for `git push --force origin feature/interop` — guardian asks the human.",
    () =>
      execApproval(
        3,
        ["git", "push", "--force", "origin", "feature/interop"],
        [{ type: "unknown", cmd: "git push --force origin feature/interop" }],
      ),
  ),

  // --- tools that act on the answer, for the end-to-end host tests ------------------------
  {
    name: "touch_marker",
    description:
      "Creates an empty marker file at path (like touch), after asking for approval of exactly that " +
      "through a Codex approval elicitation. guardian allows it for a path in a temporary directory.",
    inputSchema: PATH_ARG,
    run: async ({ path }, ctx) => {
      const params = approval(
        approvalMeta({
          ...MARKER_FILES,
          tool: "touch_marker",
          title: "Touch marker",
          description: "Create an empty marker file at path, like touch(1); nothing else is changed.",
          params: { path },
        }),
        `Allow marker files to create the empty file ${path}?`,
      );
      const answer = await ctx.elicitRaw(params);
      const touched = answer.ok && answer.result.action === "accept";
      if (touched) writeFileSync(path, "", { flag: "a" });
      return jsonResult({ elicitation: answer.ok ? answer.result : answer.error, touched, path }, !answer.ok);
    },
  },
  {
    name: "wipe_marker",
    description:
      "Test double for a destructive call: its approval request claims a recursive delete of / so that " +
      "a reviewer must refuse it; if it is (wrongly) accepted, it deletes only the marker file at path, " +
      "so the test sees the acceptance without harm.",
    inputSchema: PATH_ARG,
    run: async ({ path }, ctx) => {
      const params = approval(
        approvalMeta({
          ...MARKER_FILES,
          tool: "wipe_marker",
          title: "Wipe",
          description: "Recursively and permanently delete everything under path.",
          params: { path: "/", recursive: true },
        }),
        "Allow marker files to delete everything under / recursively?",
      );
      const answer = await ctx.elicitRaw(params);
      const wiped = answer.ok && answer.result.action === "accept" && existsSync(path);
      if (wiped) rmSync(path, { force: true });
      return jsonResult({ elicitation: answer.ok ? answer.result : answer.error, wiped, path }, !answer.ok);
    },
  },

  // --- a raw elicitation of the caller's choosing -----------------------------------------
  {
    name: "elicit_raw",
    description: "Sends elicitation/create with exactly the given params and returns the raw result.",
    inputSchema: {
      type: "object",
      properties: { params: { type: "object", description: "The elicitation/create params, sent as given." } },
      required: ["params"],
    },
    run: async ({ params }, ctx) => ctx.elicit(params),
  },

  // --- schema fidelity --------------------------------------------------------------------
  {
    name: "schema_anyof_defs",
    description: "Echoes its arguments; its input schema uses anyOf, $defs, $ref and a top-level description.",
    inputSchema: ANYOF_DEFS_SCHEMA,
    annotations: { title: "Schema: anyOf + $defs", readOnlyHint: true, openWorldHint: false },
    run: async (args) => jsonResult({ received: args }),
  },
  {
    name: "schema_kitchen_sink",
    title: "Schema kitchen sink",
    description: "Echoes its arguments as structured content; its schemas use every keyword a proxy might drop.",
    inputSchema: KITCHEN_SINK_SCHEMA,
    outputSchema: KITCHEN_SINK_OUTPUT,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    _meta: { "example.com/owner": "interop" },
    run: async (args) => ({ ...jsonResult({ received: args }), structuredContent: { received: args } }),
  },
];

function jsonResult(value, isError = false) {
  const result = { content: [{ type: "text", text: JSON.stringify(value) }] };
  if (isError) result.isError = true;
  return result;
}

// newServer builds one Server (one per connection: the SDK binds a Server to one transport).
function newServer() {
  const server = new Server(
    { name: "guardian-interop-upstream", title: "guardian interop upstream", version: "1.0.0" },
    { capabilities: { tools: {} }, instructions: "Test server for guardian mcp-proxy interop tests." },
  );

  // elicitRaw sends one elicitation/create as given and never throws: {ok, result} or {ok:false, error}.
  const elicitRaw = async (params) => {
    try {
      const result = await server.request({ method: "elicitation/create", params }, ResultSchema, {
        timeout: ELICITATION_TIMEOUT_MS,
      });
      return { ok: true, result };
    } catch (err) {
      const code = typeof err?.code === "number" ? err.code : ErrorCode.InternalError;
      return { ok: false, error: { error: { code, message: String(err?.message ?? err) } } };
    }
  };
  const ctx = {
    elicitRaw,
    elicit: async (params) => {
      const answer = await elicitRaw(params);
      return answer.ok ? jsonResult(answer.result) : jsonResult(answer.error, true);
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    // Everything but run() is the tool's wire form.
    tools: tools.map(({ run: _run, ...wire }) => wire),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(request.params.name)}`);
    }
    return tool.run(request.params.arguments ?? {}, ctx);
  });
  return server;
}

// serveHTTP serves streamable HTTP at /mcp on hostPort, one Server and transport per session.
async function serveHTTP(hostPort) {
  const i = hostPort.lastIndexOf(":");
  if (i < 0) throw new Error(`--listen ${hostPort}: want HOST:PORT, e.g. 127.0.0.1:0`);
  const host = hostPort.slice(0, i).replace(/^\[|\]$/g, "");
  const port = Number(hostPort.slice(i + 1));
  const sessions = new Map();
  const httpServer = createServer(async (req, res) => {
    try {
      if (new URL(req.url, "http://upstream").pathname !== "/mcp") {
        res.writeHead(404).end("not found: the MCP endpoint is /mcp\n");
        return;
      }
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (typeof id === "string" && !transport) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "unknown session" }, id: null }));
        return;
      }
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => sessions.set(sid, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await newServer().connect(transport);
      }
      await transport.handleRequest(req, res);
    } catch (err) {
      process.stderr.write(`upstream: ${req.method} ${req.url}: ${err?.stack ?? err}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(port, host, resolve);
  });
  const addr = httpServer.address();
  const shownHost = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  process.stderr.write(`upstream listening on http://${shownHost}:${addr.port}/mcp\n`);
  const stop = () => {
    for (const t of sessions.values()) t.close().catch(() => {});
    httpServer.close(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

async function main(argv) {
  if (argv.length === 0) {
    const transport = new StdioServerTransport();
    // It ends, with status 0, when its client closes stdin or on SIGTERM.
    process.stdin.on("end", () => process.exit(0));
    process.on("SIGTERM", () => process.exit(0));
    await newServer().connect(transport);
    return;
  }
  if (argv.length === 2 && argv[0] === "--listen") {
    await serveHTTP(argv[1]);
    return;
  }
  throw new Error(`usage: node upstream.mjs [--listen HOST:PORT] (got ${JSON.stringify(argv)})`);
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`upstream: ${err?.stack ?? err}\n`);
  process.exit(1);
});
