/**
 * The HTTP route table of the hub. Each endpoint is one row; the handler applies the guards. The
 * rows are grouped by area (health and auth, extension, tools, admin, MCP), one function each.
 */
import type { Route, RouteContext } from "./http/handler.ts";
import { errorResponse, jsonResponse } from "./http/http_error.ts";
import { HubError, hubError, restStatus } from "../protocol/errors.ts";
import { RATE_LIMITS } from "./http/rate_limiter.ts";
import type { HealthPayload } from "../protocol/health.ts";
import { listGroup } from "./calls/catalog.ts";
import type { Catalog } from "./calls/catalog_interface.ts";
import type { Pipeline } from "./calls/pipeline_interface.ts";
import { readJsonBody, readOptionalJsonBody } from "./http/body.ts";
import { parseAuditQuery } from "./audit/audit_log.ts";
import type { AuditLog, AuditQuery } from "./audit/audit_log_interface.ts";
import type { McpMode } from "./mcp/mcp_server.ts";
import { outcomeResult } from "./calls/results.ts";
import type { McpSessions } from "./mcp/sessions_interface.ts";
import type { ExtensionLink } from "./ws/extension_link_interface.ts";
import type { ExtensionDoor } from "./ws/extension_door_interface.ts";
import type { ReloadSummary } from "./plugins/plugin_host_interface.ts";
import { type SettingsUpdateDeps, updatePluginSettings } from "./plugins/settings_update.ts";
import { CHALLENGE_PATH, challengeProof, isNonce, NO_SECRET_CODE } from "../protocol/challenge.ts";
import { isPlainObject } from "../protocol/plain_object.ts";
import { MAX_MESSAGE_BYTES as MAX_CALL_BODY_BYTES } from "../protocol/limits.ts";

export interface RouteDeps {
  health(): HealthPayload;
  /** The port this hub listens on; 0 until it is bound. */
  port(): number;
  /** The current secret (the challenge proof is made with it); undefined when none is set. */
  secret(): string | undefined;
  reload(): Promise<ReloadSummary>;
  /** `GET /tools` lists it; `?plugin=` keeps one plugin's tools (`browser`: the built-in ones). */
  catalog: Catalog;
  /** Runs `POST /tools/:name/call`; the status tells the class of failure (docs/http.md). */
  pipeline: Pipeline;
  /** What `POST /plugin-settings` needs to check, store and apply settings. */
  settings: SettingsUpdateDeps;
  audit: Pick<AuditLog, "query">;
  mcp: Pick<McpSessions, "handle">;
  /** Takes over `/ws` upgrades. */
  extension: Pick<ExtensionDoor, "connect">;
  /** `POST /extension/reload` sends `extension.reload` over it. */
  link: Pick<ExtensionLink, "notify">;
}

export function createRoutes(deps: RouteDeps): Route[] {
  return [
    ...healthRoutes(deps),
    ...extensionRoutes(deps),
    ...toolRoutes(deps),
    ...adminRoutes(deps),
    ...mcpRoutes("/mcp", "full", deps),
    ...mcpRoutes("/mcp/gateway", "gateway", deps),
  ];
}

/** `/health` and the challenge a client checks the hub with before it sends the secret. */
function healthRoutes(deps: RouteDeps): Route[] {
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
      handle: ({ url }) => challengeAnswer(url, deps),
    },
  ];
}

async function challengeAnswer(url: URL, deps: RouteDeps): Promise<Response> {
  const nonces = url.searchParams.getAll("nonce");
  if (nonces.length !== 1 || !isNonce(nonces[0])) {
    throw hubError(
      "INVALID_NONCE",
      `Send ${CHALLENGE_PATH}?nonce=<32 to 64 hex characters>, a fresh random value per check.`,
    );
  }
  // The port this hub listens on goes into the proof, so a relayed challenge does not match.
  const port = deps.port();
  if (port === 0) {
    throw hubError("NOT_LISTENING", "The hub is still starting; try again.");
  }
  const secret = deps.secret();
  if (secret === undefined) {
    throw hubError(
      NO_SECRET_CODE,
      "This hub has no secret configured, so it has nothing to prove; send requests " +
        "without one.",
    );
  }
  const proof = await challengeProof(secret, nonces[0], port);
  return jsonResponse({ proof }, 200, { "cache-control": "no-store" });
}

/** Where the extension connects (`/ws`), and telling it to reload. */
function extensionRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: "GET",
      path: "/ws-info",
      auth: "required",
      handle: () => jsonResponse({ wsUrl: `ws://127.0.0.1:${deps.port()}/ws` }),
    },
    {
      method: "GET",
      path: "/ws",
      auth: "websocket",
      handle: ({ req }) => deps.extension.connect(req),
    },
    {
      method: "POST",
      path: "/extension/reload",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: () => {
        if (!deps.link.notify("extension.reload", {})) {
          throw hubError(
            "EXTENSION_NOT_CONNECTED",
            "The hub extension is not connected, so it cannot be told to reload. Open Chromium " +
              "with the hub extension loaded.",
          );
        }
        return jsonResponse({ ok: true });
      },
    },
  ];
}

/** Listing the tools and calling one. */
function toolRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: "GET",
      path: "/tools",
      auth: "required",
      handle: ({ url }) =>
        jsonResponse({
          tools: listGroup(deps.catalog, url.searchParams.get("plugin") ?? undefined),
        }),
    },
    {
      method: "POST",
      path: "/tools/:name/call",
      auth: "required",
      handle: ({ req, params }) => callTool(req, params.name, deps),
    },
  ];
}

async function callTool(req: Request, name: string, deps: RouteDeps): Promise<Response> {
  let args: unknown = {};
  let badRequest: { message: string; status: number } | undefined;
  try {
    args = await callBody(req);
  } catch (error) {
    // A bad or oversized body for a real tool is a refused call like any other: answered
    // (400 or 413) and audited.
    const status = error instanceof HubError ? restStatus(error) : 500;
    if (status !== 400 && status !== 413) throw error;
    badRequest = { message: (error as HubError).message, status };
  }
  const outcome = await deps.pipeline.call({ name, args, signal: req.signal, badRequest });
  return outcome.ok
    ? jsonResponse(outcomeResult(outcome))
    : errorResponse(outcome.error, outcomeResult(outcome));
}

async function callBody(req: Request): Promise<unknown> {
  const body = await readOptionalJsonBody(req, MAX_CALL_BODY_BYTES);
  if (body === undefined) return {};
  if (!isPlainObject(body) || Object.keys(body).some((k) => k !== "arguments")) {
    throw hubError(
      "INVALID_REQUEST",
      'Send {"arguments": {...}} with the tool\'s arguments (tabId and instance go inside ' +
        "arguments).",
    );
  }
  return body.arguments ?? {};
}

/** Reloading plugins, reading the audit log, changing plugin settings. */
function adminRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: "POST",
      path: "/reload",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: async () => jsonResponse({ ok: true, ...(await deps.reload()) }),
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
          throw hubError("INVALID_QUERY", (error as Error).message);
        }
        return jsonResponse(deps.audit.query(query));
      },
    },
    {
      method: "POST",
      path: "/plugin-settings",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: async ({ req }) =>
        jsonResponse(await updatePluginSettings(await readJsonBody(req), deps.settings)),
    },
  ];
}

/** One MCP endpoint (`full` or `gateway` mode): POST, GET and DELETE go to the sessions. */
function mcpRoutes(path: string, mode: McpMode, deps: RouteDeps): Route[] {
  return ["POST", "GET", "DELETE"].map((method) => ({
    method,
    path,
    auth: "required",
    handle: ({ req }: RouteContext) => deps.mcp.handle(req, mode),
  }));
}
