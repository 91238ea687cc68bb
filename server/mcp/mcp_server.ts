/**
 * One MCP server object per session. Full mode (`/mcp`) lists every tool and calls them by name;
 * gateway mode (`/mcp/gateway`) exposes only `hub_list_tools` and `hub_call`. Both run calls
 * through the one pipeline and report progress when the request carried a `progressToken`.
 */
import { CallToolRequestSchema, ListToolsRequestSchema, Server } from "./sdk.ts";
import { VERSION } from "../../protocol/version.ts";
import type { Catalog } from "../calls/catalog.ts";
import type { CallOutcome, Pipeline } from "../calls/pipeline.ts";
import { type CallToolResult, errorResult, successResult } from "../calls/results.ts";
import { callError } from "../calls/call_error.ts";
import { GATEWAY_TOOLS } from "./gateway_tools.ts";

export type McpMode = "full" | "gateway";

export interface McpServerDeps {
  catalog: Catalog;
  pipeline: Pipeline;
}

export function outcomeResult(outcome: CallOutcome): CallToolResult {
  return outcome.ok
    ? successResult(outcome.value, outcome.content)
    : errorResult(outcome.error.payload);
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

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: mode === "full"
      ? deps.catalog.list().map(({ name, description, inputSchema }) => ({
        name,
        description,
        inputSchema: inputSchema as { type: "object" },
      }))
      : GATEWAY_TOOLS,
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const onProgress = token === undefined
      ? undefined
      : (p: { progress: number; total?: number; message?: string }) =>
        void extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, ...p },
        }).catch(() => {});
    const call = (name: string, args: unknown) =>
      deps.pipeline.call({ name, args, onProgress, signal: extra.signal }).then(outcomeResult);
    const args = request.params.arguments ?? {};
    if (mode === "full") return await call(request.params.name, args);
    return await callGateway(request.params.name, args, deps.catalog, call);
  });

  return server;
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
    const unknown = plugin === undefined ? undefined : catalog.groupError(plugin);
    if (unknown) {
      return errorResult({
        code: "PLUGIN_NOT_FOUND",
        category: "not_found",
        retryable: false,
        message: unknown,
      });
    }
    return successResult({ tools: catalog.list(plugin) });
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
