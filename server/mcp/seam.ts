/**
 * The one shape of both ways an open MCP session answers a request: the SDK's transport and
 * server object (sdk_seam.ts), and the hub's own fast path in front of it (fast_seam.ts), which
 * answers `tools/call`, `tools/list` and `ping` itself and hands the rest to the SDK's seam.
 * sessions.ts owns what both share (the session table, reading the body once, finished resumes)
 * and sends each request of a session through that session's seam. The conformance and fuzz
 * suites run against both seams (hub option `mcpPath`), so the two cannot drift.
 */
import type { ResumePoint } from "./event_store.ts";

/** Which seam the sessions use: the fast path (the default), or the SDK alone. */
export type McpPath = "fast" | "sdk";

/** What sessions.ts learned about a request before the seam sees it: read once, passed along. */
export interface McpRequestContext {
  /** A POST's body, read and parsed once (the request's own body is used up). */
  parsedBody?: unknown;
  /** Where a GET with Last-Event-ID resumes a stream that is still running. */
  resumeFrom?: ResumePoint;
}

export interface McpSeam {
  /** Answers one request of an open session. */
  handle(request: Request, context?: McpRequestContext): Promise<Response>;
}
