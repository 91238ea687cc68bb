/**
 * One MCP server object per session. Full mode (`/mcp`) lists every tool and calls them by name;
 * gateway mode (`/mcp/gateway`) exposes only `hub_list_tools` and `hub_call`. Both run calls
 * through the one pipeline and report progress when the request carried a `progressToken`.
 *
 * `tools/call` is answered by the server's fallback handler rather than `setRequestHandler`: the
 * SDK checks a registered method's params with its own schema first and answers a malformed
 * call (`arguments` an array, `name` missing) with -32603 and the raw list of schema problems.
 * Here it gets -32602 Invalid params and one short line that says what to send.
 */
import { ErrorCode, ListToolsRequestSchema, McpError, Server } from "./sdk.ts";
import { VERSION } from "../../protocol/version.ts";
import { type Catalog, listGroup } from "../calls/catalog.ts";
import type { Pipeline } from "../calls/pipeline.ts";
import {
  type CallToolResult,
  errorResult,
  outcomeResult,
  successResult,
} from "../calls/results.ts";
import { DomainError } from "../domain_error.ts";
import { callError } from "../calls/call_error.ts";
import { GATEWAY_TOOLS } from "./gateway_tools.ts";
import { boundProblems } from "../calls/validation_problems.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";

export type McpMode = "full" | "gateway";

export interface McpServerDeps {
  catalog: Catalog;
  pipeline: Pipeline;
}

const INSTRUCTIONS = {
  full: "hub runs tools in the user's own browser. Plugin tools are named <plugin>__<tool> and " +
    "run in a tab of that site (pass tabId from plugin_list_tabs to pick one). Tools marked " +
    "[Disabled] are off until the user allows them.",
  gateway: "hub runs tools in the user's own browser. Call hub_list_tools to see the tools and " +
    "their input schemas, then hub_call with the tool name and its arguments.",
};

export function createMcpServer(mode: McpMode, deps: McpServerDeps): Server {
  const server = new Server(
    { name: mode === "full" ? "hub" : "hub-gateway", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: INSTRUCTIONS[mode],
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools(mode, deps.catalog) }));

  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== "tools/call") {
      throw new McpError(ErrorCode.MethodNotFound, "Method not found");
    }
    const params = callParams(request.params);
    const { progressToken } = params;
    const onProgress = progressToken === undefined
      ? undefined
      : (p: Progress) =>
        void extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, ...p },
        }).catch(() => {});
    return await runToolCall(mode, deps, params, onProgress, extra.signal);
  };

  shortParamErrors(server);
  return server;
}

/** The `tools` of a `tools/list` result. */
export function mcpTools(mode: McpMode, catalog: Catalog) {
  if (mode === "gateway") return GATEWAY_TOOLS;
  return catalog.list().map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema: inputSchema as { type: "object" },
  }));
}

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Runs a checked `tools/call` (by name in full mode, `hub_list_tools`/`hub_call` in gateway mode). */
export async function runToolCall(
  mode: McpMode,
  deps: McpServerDeps,
  { name, args }: CallParams,
  onProgress: ((p: Progress) => void) | undefined,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const call = (name: string, args: unknown) =>
    deps.pipeline.call({ name, args, onProgress, signal }).then(outcomeResult);
  if (mode === "full") return await call(name, args);
  return await callGateway(name, args, deps.catalog, call);
}

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The SDK checks the params of the methods it registers (initialize, ping, logging/setLevel,
 * tools/list) with zod and lets a mismatch out as -32603 with the raw problem list. Each registered
 * handler is wrapped so a mismatch is -32602 Invalid params with a short line instead. The
 * handlers live in the SDK's `_requestHandlers` map (no public way to wrap them); if a later SDK
 * renames it, nothing is wrapped and the MCP fuzz suite reports the -32603 again.
 */
function shortParamErrors(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of [...handlers] as [string, RequestHandler][]) {
    handlers.set(method, async (request: unknown, extra: unknown) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        const issues = (error as { issues?: unknown })?.issues;
        // zod names it ZodError, its core (which the SDK uses) $ZodError.
        if (!/ZodError$/.test((error as Error)?.name) || !Array.isArray(issues)) throw error;
        const problems = issues.map((issue: { path?: unknown[]; message?: string }) =>
          `${(issue.path ?? []).map(String).join(".") || "request"}: ${issue.message}`
        );
        throw invalidParams(`${method}: ${boundProblems(problems).join("; ")}.`);
      }
    });
  }
}

export interface CallParams {
  name: string;
  args: Record<string, unknown>;
  progressToken?: string | number;
}

/** What a value is, in a few words, for an error message (never the value itself). */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function invalidParams(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`);
}

/** The params of `tools/call`, checked; a malformed one throws -32602 with a short message. */
export function callParams(params: unknown): CallParams {
  const usage = 'send {"name": "<tool>", "arguments": {...}}';
  if (!isPlainObject(params)) {
    throw invalidParams(`tools/call params must be a JSON object: ${usage}.`);
  }
  const { name, arguments: args = {}, _meta } = params;
  if (typeof name !== "string" || name === "") {
    throw invalidParams(`name must be a tool name (a string), not ${kindOf(name)}: ${usage}.`);
  }
  if (!isPlainObject(args)) {
    throw invalidParams(`arguments must be a JSON object, not ${kindOf(args)}: ${usage}.`);
  }
  const token = isPlainObject(_meta) ? _meta.progressToken : undefined;
  return {
    name,
    args,
    ...(typeof token === "string" || typeof token === "number" ? { progressToken: token } : {}),
  };
}

async function callGateway(
  name: string,
  args: Record<string, unknown>,
  catalog: Catalog,
  call: (name: string, args: unknown) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (name === "hub_list_tools") {
    const plugin = args.plugin;
    if (plugin !== undefined && typeof plugin !== "string") {
      return errorResult(callError("INVALID_ARGUMENTS", "plugin must be a string.").payload);
    }
    try {
      return successResult({ tools: listGroup(catalog, plugin) });
    } catch (error) {
      if (!isUnknownPlugin(error)) throw error;
      return errorResult(error.payload);
    }
  }
  if (name === "hub_call") {
    const { tool, arguments: toolArgs } = args;
    if (typeof tool !== "string" || tool === "") {
      return errorResult(
        callError(
          "INVALID_ARGUMENTS",
          'hub_call needs "tool": the name of a tool from hub_list_tools.',
        ).payload,
      );
    }
    return await call(tool, toolArgs ?? {});
  }
  return errorResult(
    callError(
      "TOOL_NOT_FOUND",
      `The gateway has only hub_list_tools and hub_call; call "${name}" through hub_call.`,
    ).payload,
  );
}

/** The error `listGroup` throws for a group that names no plugin. */
function isUnknownPlugin(error: unknown): error is DomainError {
  return error instanceof DomainError && error.kind === "not_found" &&
    error.code === "PLUGIN_NOT_FOUND";
}
