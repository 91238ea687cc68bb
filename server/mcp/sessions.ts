/**
 * MCP sessions of `/mcp` and `/mcp/gateway` over Streamable HTTP: an `initialize` without a session
 * id creates a session (at most 5 per minute), later requests carry `mcp-session-id`, DELETE
 * closes it. Each session has its own server object and transport from the official SDK, its
 * own event store (SSE streams start with a priming event, an id and a `retry` field, and a client
 * whose stream dropped resumes it with `GET` and `Last-Event-ID`), and its seam (seam.ts): by
 * default the fast path, whose front (`front.ts`) answers `tools/call`, `tools/list` and `ping`
 * itself and leaves everything else to the SDK; with `mcpPath: "sdk"` the SDK answers everything.
 * The SDK (`sdk_server.ts`) is not loaded at start, which it would slow by about a third: the hub
 * imports it just after it starts listening (`Hub.preload`), or the first session does.
 */
import type { Server, WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import { isInitializeRequest } from "./message_shape.ts";
import {
  type EventStoreLimits,
  EventStores,
  type ResumePoint,
  type SessionEventStore,
  unknownEventIdMessage,
} from "./event_store.ts";
import { readJsonBody } from "../http/body.ts";
import { sessionError } from "./protocol_errors.ts";
import { RATE_LIMITS, RateLimiter, RETRY_AFTER_SECONDS } from "../http/rate_limiter.ts";
import type { Logger } from "../log/logger_interface.ts";
import type { McpMode, McpServerDeps } from "./mcp_server.ts";
import { MAX_MESSAGE_BYTES as MAX_MCP_BODY_BYTES } from "../../protocol/limits.ts";
import { McpFront } from "./front.ts";
import { SSE_HEADERS, sseEvents } from "./call_stream.ts";
import { acceptsEventStream } from "./fast_request.ts";
import { ToolListCache } from "./tool_list_cache.ts";
import type { McpPath, McpSeam } from "./seam.ts";
import { sdkSeam } from "./sdk_seam.ts";
import { fastSeam } from "./fast_seam.ts";
import { loadOnce } from "../../core/cache/load_once.ts";
import type { McpSessions } from "./sessions_interface.ts";

interface Session {
  mode: McpMode;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** When the last request arrived. */
  lastSeen: number;
  /** Open event streams (GET): a client listening for notifications is connected. */
  streams: number;
  events: SessionEventStore;
  /** How the session's requests are answered: the fast path, or the SDK alone (seam.ts). */
  seam: McpSeam;
  /** The fast path's front (front.ts); undefined on the SDK path. */
  front?: McpFront;
}

/** A session with no open stream and no request for this long is closed. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** A session with no open stream counts as a connected client this long after its last request. */
const RECENT_MS = 60_000;
/** How long a client waits before reconnecting a dropped stream (the SSE `retry` field). */
export const RETRY_MS = 1_000;

export interface McpSessionsOptions extends McpServerDeps {
  logger: Logger;
  clock?: () => number;
  /** Session creations per minute; default 5 (docs/http.md, "Rate limits"). */
  sessionLimit?: number;
  /** Bounds of the event stores that make streams resumable (tests make them small). */
  eventStoreLimits?: EventStoreLimits;
  /** `sdk`: no fast path, the SDK answers every request (tests run both); default `fast`. */
  mcpPath?: McpPath;
}

/** Counts an open event stream until the client goes away or the stream ends. */
function tracked(session: Session, response: Response): Response {
  if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) {
    return response;
  }
  session.streams++;
  let open = true;
  const end = () => {
    if (open) session.streams--;
    open = false;
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * Replays a request stream whose every response is stored, then ends it: the SDK has finished
 * that stream and would otherwise hold the resumed one open with nothing more to send.
 */
function replayFinished(session: Session, point: ResumePoint, req: Request): Response {
  if (!acceptsEventStream(req.headers)) {
    return sessionError(
      "NOT_ACCEPTABLE",
      "Not Acceptable: a resumed stream needs Accept: text/event-stream.",
    );
  }
  const sessionId = session.transport.sessionId;
  return new Response(sseEvents(session.events.eventsAfter(point)), {
    headers: sessionId ? { ...SSE_HEADERS, "mcp-session-id": sessionId } : SSE_HEADERS,
  });
}

type SdkServer = typeof import("./sdk_server.ts");
/** The SDK's server pieces, imported once (a failed import is tried again next time). */
const loadSdkServer = loadOnce(() => import("./sdk_server.ts"));

const LOG_LEVEL = { debug: "debug", info: "info", warn: "warning", error: "error" } as const;

/** What the sessions share: the table of open sessions and what opens new ones. */
interface SessionTable {
  sessions: Map<string, Session>;
  clock: () => number;
  eventStores: EventStores;
  limiter: RateLimiter;
  lists: ToolListCache;
  options: McpSessionsOptions;
}

export function createMcpSessions(options: McpSessionsOptions): McpSessions {
  const table: SessionTable = {
    sessions: new Map(),
    clock: options.clock ?? Date.now,
    eventStores: new EventStores(options.eventStoreLimits),
    limiter: new RateLimiter(
      { ...RATE_LIMITS.mcpSession, limit: options.sessionLimit ?? RATE_LIMITS.mcpSession.limit },
      options.clock,
    ),
    lists: new ToolListCache(),
    options,
  };
  const { sessions, clock } = table;

  return {
    async handle(req, mode) {
      expireIdle(table);
      const id = req.headers.get("mcp-session-id");
      if (id === null) {
        if (req.method === "POST") return await create(table, req, mode);
        return sessionError(
          "NO_SESSION",
          "Missing mcp-session-id header; initialize a session first.",
        );
      }
      const session = sessionFor(table, id, mode);
      return session instanceof Response ? session : await serve(table, session, req);
    },
    count: () => {
      const now = clock();
      return [...sessions.values()].filter((s) => s.streams > 0 || now - s.lastSeen < RECENT_MS)
        .length;
    },
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
    preload: () => loadSdkServer().then(() => {}),
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      for (const session of all) session.front?.close();
      await Promise.allSettled(all.map((s) => s.transport.close()));
    },
  };
}

/** Closes sessions nobody used for SESSION_IDLE_MS (clients often quit without DELETE). */
function expireIdle({ sessions, clock, options }: SessionTable) {
  const now = clock();
  for (const [id, session] of sessions) {
    if (session.streams > 0 || now - session.lastSeen < SESSION_IDLE_MS) continue;
    sessions.delete(id);
    session.front?.close();
    void session.transport.close().catch(() => {});
    options.logger.info(`MCP session expired after ${SESSION_IDLE_MS / 60_000} idle minutes`);
  }
}

/** The session a request names, or the error response when it is gone or of the other mode. */
function sessionFor({ sessions }: SessionTable, id: string, mode: McpMode): Session | Response {
  const session = sessions.get(id);
  if (!session) {
    return sessionError(
      "SESSION_NOT_FOUND",
      "Session not found: it was closed, expired after 30 idle minutes, or the hub restarted. " +
        "Initialize a new session.",
    );
  }
  if (session.mode !== mode) {
    const path = session.mode === "full" ? "/mcp" : "/mcp/gateway";
    return sessionError(
      "SESSION_NOT_FOUND",
      `This session belongs to ${path}; send its requests there.`,
    );
  }
  return session;
}

/**
 * A request of an open session: a finished stream's resume is answered here, the rest by the
 * session's seam, with the body read once and a running stream's resume point passed along.
 */
async function serve(table: SessionTable, session: Session, req: Request): Promise<Response> {
  session.lastSeen = table.clock();
  const lastEventId = req.headers.get("last-event-id");
  let resumeFrom: ResumePoint | undefined;
  if (req.method === "GET" && lastEventId) {
    resumeFrom = session.events.resumePoint(lastEventId);
    if (!resumeFrom) {
      return sessionError("UNKNOWN_EVENT_ID", unknownEventIdMessage(table.eventStores.limits));
    }
    if (resumeFrom.finished) return tracked(session, replayFinished(session, resumeFrom, req));
  }
  const parsedBody = req.method === "POST"
    ? await readJsonBody(req, MAX_MCP_BODY_BYTES)
    : undefined;
  const response = await session.seam.handle(req, { parsedBody, resumeFrom });
  return req.method === "GET" ? tracked(session, response) : response;
}

/** An `initialize` without a session id: opens a session (within the rate limit). */
async function create(table: SessionTable, req: Request, mode: McpMode): Promise<Response> {
  const body = await readJsonBody(req, MAX_MCP_BODY_BYTES);
  const refused = refuseCreate(table.limiter, body);
  if (refused) return refused;
  const sdk = await loadSdkServer();
  const server = sdk.createMcpServer(mode, table.options);
  const events = table.eventStores.open();
  const transport = openTransport(table, mode, server, events, sdk);
  try {
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody: body });
  } finally {
    // An initialize the SDK refused made no session: its store must not stay open.
    if (!transport.sessionId || !table.sessions.has(transport.sessionId)) events.close();
  }
}

/** Why a request without a session id opens none: no initialize in it, or too many new ones. */
function refuseCreate(limiter: RateLimiter, body: unknown): Response | undefined {
  const initializing = Array.isArray(body)
    ? body.some((m) => isInitializeRequest(m))
    : isInitializeRequest(body);
  if (!initializing) {
    return sessionError(
      "NO_SESSION",
      "No session: send an initialize request first (without mcp-session-id), then send " +
        "the mcp-session-id header it returns with every request.",
    );
  }
  if (!limiter.take("mcp")) {
    return sessionError(
      "TOO_MANY_SESSIONS",
      `Too many new MCP sessions: at most ${limiter.rule.limit} per minute. Retry in ` +
        `${RETRY_AFTER_SECONDS} seconds, or reuse your session.`,
      { "retry-after": String(RETRY_AFTER_SECONDS) },
    );
  }
  return undefined;
}

/** The SDK transport of a new session; it enters the table once the SDK gives it an id. */
function openTransport(
  { sessions, clock, lists, options }: SessionTable,
  mode: McpMode,
  server: Server,
  events: SessionEventStore,
  { WebStandardStreamableHTTPServerTransport }: SdkServer,
): WebStandardStreamableHTTPServerTransport {
  // Kept here: when the transport closes, the session may already have left the table.
  let front: McpFront | undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    eventStore: events,
    retryInterval: RETRY_MS,
    onsessioninitialized: (id) => {
      const sdk = sdkSeam(transport, events);
      front = options.mcpPath === "sdk"
        ? undefined
        : new McpFront({ ...options, mode, sessionId: id, events, lists, retryMs: RETRY_MS });
      const seam = front ? fastSeam(front, sdk) : sdk;
      const session = {
        mode,
        server,
        transport,
        lastSeen: clock(),
        streams: 0,
        events,
        seam,
        front,
      };
      sessions.set(id, session);
      options.logger.info(`MCP session opened (${mode}); ${sessions.size} active`);
    },
    onsessionclosed: (id) => {
      sessions.delete(id);
      options.logger.info(`MCP session closed (${mode}); ${sessions.size} active`);
    },
  });
  transport.onclose = () => {
    const id = transport.sessionId;
    front?.close();
    events.close();
    if (id) sessions.delete(id);
  };
  return transport;
}
