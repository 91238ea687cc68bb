/**
 * MCP sessions of `/mcp` and `/mcp/gateway` over Streamable HTTP: an `initialize` without a session
 * id creates a session (at most 5 per minute), later requests carry `mcp-session-id`, DELETE
 * closes it. Each session has its own server object and transport from the official SDK.
 */
import {
  isInitializeRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from "./sdk.ts";
import { readJsonBody } from "../http/body.ts";
import { jsonResponse } from "../http/http_error.ts";
import { RATE_LIMITS, RateLimiter, RETRY_AFTER_SECONDS } from "../http/rate_limiter.ts";
import type { PluginLogEntry } from "../../protocol/events.ts";
import type { Logger } from "../log/logger.ts";
import { createMcpServer, type McpMode, type McpServerDeps } from "./mcp_server.ts";

/** MCP requests may carry large tool arguments; the WebSocket limit applies to them too. */
const MAX_MCP_BODY_BYTES = 10 * 1024 * 1024;

interface Session {
  mode: McpMode;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

export interface McpSessions {
  handle(req: Request, mode: McpMode): Promise<Response>;
  count(): number;
  /** Sends a plugin log entry to every session as `notifications/message`. */
  broadcastLog(plugin: string, entry: PluginLogEntry): void;
  /** Tells full-mode sessions that the tool list changed. */
  toolsChanged(): void;
  closeAll(): Promise<void>;
}

export interface McpSessionsOptions extends McpServerDeps {
  logger: Logger;
  clock?: () => number;
  /** Session creations per minute; default 5 (SPEC "Limits"). */
  sessionLimit?: number;
}

function rpcError(status: number, code: number, message: string, headers = {}) {
  return jsonResponse({ jsonrpc: "2.0", id: null, error: { code, message } }, status, headers);
}

const LOG_LEVEL = { debug: "debug", info: "info", warn: "warning", error: "error" } as const;

export function createMcpSessions(options: McpSessionsOptions): McpSessions {
  const sessions = new Map<string, Session>();
  const limiter = new RateLimiter(
    { ...RATE_LIMITS.mcpSession, limit: options.sessionLimit ?? RATE_LIMITS.mcpSession.limit },
    options.clock,
  );

  async function create(req: Request, mode: McpMode): Promise<Response> {
    const body = await readJsonBody(req, MAX_MCP_BODY_BYTES);
    const initializing = Array.isArray(body)
      ? body.some((m) => isInitializeRequest(m))
      : isInitializeRequest(body);
    if (!initializing) {
      return rpcError(
        400,
        -32000,
        "No session: send an initialize request first (without mcp-session-id), then send " +
          "the mcp-session-id header it returns with every request.",
      );
    }
    if (!limiter.take("mcp")) {
      return rpcError(
        429,
        -32000,
        `Too many new MCP sessions: at most ${limiter.rule.limit} per minute. Retry in ` +
          `${RETRY_AFTER_SECONDS} seconds, or reuse your session.`,
        { "retry-after": String(RETRY_AFTER_SECONDS) },
      );
    }
    const server = createMcpServer(mode, options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { mode, server, transport });
        options.logger.info(`MCP session opened (${mode}); ${sessions.size} active`);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        options.logger.info(`MCP session closed (${mode}); ${sessions.size} active`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody: body });
  }

  return {
    async handle(req, mode) {
      const id = req.headers.get("mcp-session-id");
      if (id === null) {
        if (req.method === "POST") return await create(req, mode);
        return rpcError(400, -32000, "Missing mcp-session-id header; initialize a session first.");
      }
      const session = sessions.get(id);
      if (!session || session.mode !== mode) {
        return rpcError(
          404,
          -32001,
          "Session not found: it was closed or the hub restarted. Initialize a new session.",
        );
      }
      return await session.transport.handleRequest(req);
    },
    count: () => sessions.size,
    broadcastLog(plugin, entry) {
      for (const [id, session] of sessions) {
        session.server.sendLoggingMessage({
          level: LOG_LEVEL[entry.level],
          logger: `plugin:${plugin}`,
          data: entry.data === undefined
            ? entry.message
            : { message: entry.message, data: entry.data },
        }, id).catch(() => {});
      }
    },
    toolsChanged() {
      for (const session of sessions.values()) {
        if (session.mode === "full") session.server.sendToolListChanged().catch(() => {});
      }
    },
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((s) => s.transport.close()));
    },
  };
}
