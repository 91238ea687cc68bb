/** The HTTP route table of the hub. Each endpoint is one row; the handler applies the guards. */
import type { Route, RouteContext } from "./http/handler.ts";
import { HttpError, jsonResponse } from "./http/http_error.ts";
import { RATE_LIMITS } from "./http/rate_limiter.ts";
import type { HealthPayload } from "../protocol/health.ts";
import type { AuditEntry } from "../protocol/audit.ts";
import type { ListedTool } from "./calls/catalog.ts";
import { readJsonBody, readOptionalJsonBody } from "./http/body.ts";
import { type AuditQuery, parseAuditQuery } from "./audit/audit_log.ts";
import type { McpMode } from "./mcp/mcp_server.ts";
import type { CallToolResult } from "./calls/results.ts";
import { CHALLENGE_PATH, isNonce, NO_SECRET_CODE } from "../protocol/challenge.ts";
import { isPlainObject } from "../protocol/plain_object.ts";

export interface RouteDeps {
  health(): HealthPayload;
  /** `ws://127.0.0.1:<port>/ws` of this server. */
  wsUrl(): string;
  reload(): Promise<{ plugins: number; durationMs: number }>;
  /** Tools, optionally of one plugin (`browser` lists the built-in tools). */
  listTools(plugin?: string): ListedTool[];
  /** Runs a tool; the status tells the class of failure (docs/http.md). */
  callTool(
    name: string,
    args: unknown,
    options: { signal: AbortSignal; badRequest?: { message: string; status: number } },
  ): Promise<{ status: number; result: CallToolResult }>;
  updatePluginSettings(body: unknown): Promise<unknown>;
  audit(query: AuditQuery): AuditEntry[];
  mcp(req: Request, mode: McpMode): Promise<Response>;
  /** Takes over a `/ws` upgrade request. */
  connectExtension(req: Request): Response;
  /** Sends `extension.reload`; false when no extension is connected. */
  reloadExtension(): boolean;
  /** The proof for `/auth/challenge` (protocol/challenge.ts); undefined when no secret is set. */
  challengeProof(nonce: string): Promise<string | undefined>;
}

/** Tool arguments travel at most as large as a WebSocket frame may be. */
const MAX_CALL_BODY_BYTES = 10 * 1024 * 1024;

async function callBody(req: Request): Promise<unknown> {
  const body = await readOptionalJsonBody(req, MAX_CALL_BODY_BYTES);
  if (body === undefined) return {};
  if (!isPlainObject(body) || Object.keys(body).some((k) => k !== "arguments")) {
    throw new HttpError(
      400,
      "INVALID_REQUEST",
      'Send {"arguments": {...}} with the tool\'s arguments (tabId and instance go inside ' +
        "arguments).",
    );
  }
  return body.arguments ?? {};
}

function mcpRoutes(path: string, mode: McpMode, deps: RouteDeps): Route[] {
  return ["POST", "GET", "DELETE"].map((method) => ({
    method,
    path,
    auth: "required",
    handle: ({ req }: RouteContext) => deps.mcp(req, mode),
  }));
}

export function createRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: "GET",
      path: "/health",
      auth: "optional",
      handle: ({ authenticated }) =>
        jsonResponse(authenticated ? deps.health() : { status: "ok" }, 200, {
          "cache-control": "no-store",
        }),
    },
    {
      // Unauthenticated by design: clients prove the hub knows the secret before sending it.
      method: "GET",
      path: CHALLENGE_PATH,
      auth: "optional",
      handle: async ({ url }) => {
        const nonces = url.searchParams.getAll("nonce");
        if (nonces.length !== 1 || !isNonce(nonces[0])) {
          throw new HttpError(
            400,
            "INVALID_NONCE",
            `Send ${CHALLENGE_PATH}?nonce=<32 to 64 hex characters>, a fresh random value per check.`,
          );
        }
        const proof = await deps.challengeProof(nonces[0]);
        if (proof === undefined) {
          throw new HttpError(
            409,
            NO_SECRET_CODE,
            "This hub has no secret configured, so it has nothing to prove; send requests " +
              "without one.",
          );
        }
        return jsonResponse({ proof }, 200, { "cache-control": "no-store" });
      },
    },
    {
      method: "GET",
      path: "/ws-info",
      auth: "required",
      handle: () => jsonResponse({ wsUrl: deps.wsUrl() }),
    },
    {
      method: "GET",
      path: "/ws",
      auth: "websocket",
      handle: ({ req }) => deps.connectExtension(req),
    },
    {
      method: "POST",
      path: "/reload",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: async () => jsonResponse({ ok: true, ...(await deps.reload()) }),
    },
    {
      method: "POST",
      path: "/extension/reload",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: () => {
        if (!deps.reloadExtension()) {
          throw new HttpError(
            503,
            "EXTENSION_NOT_CONNECTED",
            "The hub extension is not connected, so it cannot be told to reload. Open Chromium " +
              "with the hub extension loaded.",
          );
        }
        return jsonResponse({ ok: true });
      },
    },
    {
      method: "GET",
      path: "/tools",
      auth: "required",
      handle: ({ url }) =>
        jsonResponse({ tools: deps.listTools(url.searchParams.get("plugin") ?? undefined) }),
    },
    {
      method: "POST",
      path: "/tools/:name/call",
      auth: "required",
      handle: async ({ req, params }) => {
        let args: unknown = {};
        let badRequest: { message: string; status: number } | undefined;
        try {
          args = await callBody(req);
        } catch (error) {
          // A bad or oversized body for a real tool is a refused call like any other: answered
          // (400 or 413) and audited.
          if (!(error instanceof HttpError) || (error.status !== 400 && error.status !== 413)) {
            throw error;
          }
          badRequest = { message: error.message, status: error.status };
        }
        const { status, result } = await deps.callTool(params.name, args, {
          signal: req.signal,
          badRequest,
        });
        return jsonResponse(result, status);
      },
    },
    {
      method: "GET",
      path: "/audit",
      auth: "required",
      handle: ({ url }) => {
        let query: AuditQuery;
        try {
          query = parseAuditQuery(url.searchParams);
        } catch (error) {
          throw new HttpError(400, "INVALID_QUERY", (error as Error).message);
        }
        return jsonResponse(deps.audit(query));
      },
    },
    {
      method: "POST",
      path: "/plugin-settings",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: async ({ req }) =>
        jsonResponse(await deps.updatePluginSettings(await readJsonBody(req))),
    },
    ...mcpRoutes("/mcp", "full", deps),
    ...mcpRoutes("/mcp/gateway", "gateway", deps),
  ];
}
