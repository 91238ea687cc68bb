/**
 * The SDK's server object of one MCP session (see mcp_server.ts for what each mode offers). This
 * file and `sdk.ts` are the only ones that load the MCP SDK; `sessions.ts` imports them when the
 * first session opens, so the hub starts without the SDK in memory.
 *
 * `tools/call` is answered by the server's fallback handler rather than `setRequestHandler`: the
 * SDK checks a registered method's params with its own schema first and answers a malformed
 * call (`arguments` an array, `name` missing) with -32603 and the raw list of schema problems.
 * Here it gets -32602 Invalid params and one short line that says what to send.
 */
import { ListToolsRequestSchema, Server } from "./sdk.ts";
import { VERSION } from "../../protocol/version.ts";
import { boundProblems } from "../plugins/validation_problems.ts";
import { invalidParams, methodNotFound } from "./protocol_errors.ts";
import {
  callParams,
  INSTRUCTIONS,
  type McpMode,
  type McpServerDeps,
  mcpTools,
  type Progress,
  runToolCall,
} from "./mcp_server.ts";

export { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";

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
      throw methodNotFound();
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
