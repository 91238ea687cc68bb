/**
 * One MCP server object per session. Full mode (`/mcp`) lists every tool and calls them by name;
 * gateway mode (`/mcp/gateway`) exposes only `hub_list_tools` and `hub_call`. Both run calls
 * through the one pipeline and report progress when the request carried a `progressToken`.
 * This file holds what both the SDK's server object (sdk_server.ts) and the hub's own fast path
 * (front.ts) use; it does not load the SDK.
 */
import { listGroup } from "../calls/catalog.ts";
import type { Catalog } from "../calls/catalog_interface.ts";
import type { Pipeline } from "../calls/pipeline_interface.ts";
import type { CallProgress as Progress } from "../../protocol/call_contract.ts";
import {
  type CallToolResult,
  errorResult,
  outcomeResult,
  successResult,
} from "../calls/results.ts";
import { HubError, hubError } from "../../protocol/errors.ts";
import { GATEWAY_TOOLS } from "./gateway_tools.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { invalidParams } from "./protocol_errors.ts";

export type McpMode = "full" | "gateway";

export interface McpServerDeps {
  catalog: Catalog;
  pipeline: Pipeline;
}

export const INSTRUCTIONS = {
  full: "hub runs tools in the user's own browser. Plugin tools are named <plugin>__<tool> and " +
    "run in a tab of that site (pass tabId from plugin_list_tabs to pick one). Tools marked " +
    "[Disabled] are off until the user allows them.",
  gateway: "hub runs tools in the user's own browser. Call hub_list_tools to see the tools and " +
    "their input schemas, then hub_call with the tool name and its arguments.",
};

/** The `tools` of a `tools/list` result. */
export function mcpTools(mode: McpMode, catalog: Catalog) {
  if (mode === "gateway") return GATEWAY_TOOLS;
  return catalog.list().map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema: inputSchema as { type: "object" },
  }));
}

export type { Progress };

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
      return errorResult(hubError("INVALID_ARGUMENTS", "plugin must be a string."));
    }
    try {
      return successResult({ tools: listGroup(catalog, plugin) });
    } catch (error) {
      if (!isUnknownPlugin(error)) throw error;
      return errorResult(error);
    }
  }
  if (name === "hub_call") {
    const { tool, arguments: toolArgs } = args;
    if (typeof tool !== "string" || tool === "") {
      return errorResult(
        hubError(
          "INVALID_ARGUMENTS",
          'hub_call needs "tool": the name of a tool from hub_list_tools.',
        ),
      );
    }
    return await call(tool, toolArgs ?? {});
  }
  return errorResult(
    hubError(
      "TOOL_NOT_FOUND",
      `The gateway has only hub_list_tools and hub_call; call "${name}" through hub_call.`,
    ),
  );
}

/** The error `listGroup` throws for a group that names no plugin. */
function isUnknownPlugin(error: unknown): error is HubError {
  return error instanceof HubError && error.code === "PLUGIN_NOT_FOUND";
}
