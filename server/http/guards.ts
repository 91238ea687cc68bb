/**
 * Request guards, run in this order by the handler: Host, Origin, Bearer auth (a `/ws` request
 * that is not a WebSocket upgrade is answered 426 before auth). Each returns an error Response to
 * stop the request, or undefined to let it through. Header values are echoed clipped and quoted.
 */
import { clipForMessage } from "../../protocol/clip.ts";
import { type Credentials, WS_PROTOCOL } from "./credentials.ts";
// Constant time, with the challenge's plain loop: neither start-up nor a request pays for
// `node:crypto`.
import { constantTimeEqual } from "../../protocol/challenge.ts";
import { isLoopbackHost } from "../../protocol/loopback.ts";
import { errorResponse } from "./http_error.ts";
import { type HubError, hubError } from "../../protocol/errors.ts";

/** One extension origin: `chrome-extension://<id>`, nothing before or after (no list, no path). */
const EXTENSION_ORIGIN = /^chrome-extension:\/\/[a-z0-9]{1,64}$/;
/** RFC 3986 host: an IP literal in brackets, or a reg-name (unreserved, sub-delims, %XX). */
const HOST_HEADER = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::(\d{1,5}))?$/;
const MAX_PORT = 65535;

/** A header value as a message shows it: clipped, JSON-quoted (control characters escaped). */
const quoted = (value: string) => JSON.stringify(clipForMessage(value));

/**
 * Splits a Host header into host name and port; undefined when it is malformed (not an RFC 3986
 * host, or a port outside 1-65535).
 */
export function parseHostHeader(value: string): { host: string; port?: string } | undefined {
  const match = HOST_HEADER.exec(value.trim());
  if (!match) return undefined;
  const port = match[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > MAX_PORT)) return undefined;
  return { host: match[1].toLowerCase(), port };
}

/**
 * Rejects requests whose Host is not a loopback name (defeats DNS rebinding): 400 when the header
 * is malformed, 403 when it is missing or names another host.
 */
export function checkHost(req: Request): Response | undefined {
  const value = req.headers.get("host");
  if (value) {
    const parsed = parseHostHeader(value);
    if (!parsed) {
      return errorResponse(
        hubError(
          "BAD_HOST",
          `Malformed Host header ${quoted(value)}: send "Host: 127.0.0.1:<port>" ` +
            "(a host name, then an optional port from 1 to 65535).",
        ),
      );
    }
    if (isLoopbackHost(parsed.host)) return undefined;
  }
  return errorResponse(
    hubError(
      "FORBIDDEN_HOST",
      `Host ${quoted(value ?? "")} is not allowed: hub only answers requests addressed to ` +
        `127.0.0.1, localhost or [::1].`,
    ),
  );
}

/**
 * Rejects requests from web pages: any Origin other than exactly one browser extension's. Two
 * Origin headers arrive joined by ", " and are refused like a web page's.
 */
export function checkOrigin(req: Request): Response | undefined {
  const origin = req.headers.get("origin");
  if (origin === null || EXTENSION_ORIGIN.test(origin)) return undefined;
  const message = origin.includes(",")
    ? `Send at most one Origin header (got ${quoted(origin)}).`
    : `Requests from web pages are not allowed (Origin ${quoted(origin)}). ` +
      `Call hub from a native client or the hub extension.`;
  return errorResponse(hubError("FORBIDDEN_ORIGIN", message));
}

/** True when the request asks to become a WebSocket (`Upgrade: websocket`). */
export function isWebSocketUpgrade(req: Request): boolean {
  const upgrade = req.headers.get("upgrade") ?? "";
  return upgrade.split(",").some((p) => p.trim().toLowerCase() === "websocket");
}

/** The 426 of a `/ws` request that is not a WebSocket upgrade. */
export function upgradeRequired(): HubError {
  return hubError(
    "UPGRADE_REQUIRED",
    "/ws only takes WebSocket upgrades (Upgrade: websocket, Sec-WebSocket-Protocol: " +
      "hub, <secret>); it is the hub extension's connection.",
    undefined,
    { headers: { upgrade: "websocket" } },
  );
}

/**
 * `/ws` only takes WebSocket upgrades: anything else is a 426 that says so, before auth (it tells
 * nothing a caller without the secret could not read in the docs).
 */
export function checkWebSocketUpgrade(req: Request): Response | undefined {
  return isWebSocketUpgrade(req) ? undefined : errorResponse(upgradeRequired());
}

/** `websocket`: the secret travels as `Sec-WebSocket-Protocol: hub, <secret>` (docs/protocol.md). */
export type AuthMode = "required" | "optional" | "websocket";

/** The `/ws` check on credentials already read. */
function checkSubprotocol(presented: Credentials, secret: string | undefined): AuthResult {
  const fail = (message: string): AuthResult => ({
    authenticated: false,
    response: errorResponse(hubError("UNAUTHORIZED", message)),
  });
  if (!presented.offersHubProtocol) {
    return fail(
      `Offer the WebSocket subprotocols "${WS_PROTOCOL}, <secret>" ` +
        "(Sec-WebSocket-Protocol); the secret is in <config dir>/extension/auth.json.",
    );
  }
  if (secret === undefined) return { authenticated: true };
  if (presented.wsSecret === undefined || !constantTimeEqual(presented.wsSecret, secret)) {
    return fail(
      "Wrong secret in Sec-WebSocket-Protocol. It may have been rotated; reconnect " +
        "with the one in <config dir>/extension/auth.json.",
    );
  }
  return { authenticated: true };
}

export interface AuthResult {
  /** Set when the request must stop here. */
  response?: Response;
  /** True when the request proved it holds the secret (or no secret is configured). */
  authenticated: boolean;
}

/**
 * Checks the credentials a request presented (read once, `credentialsOf`) against `secret`:
 * `Authorization: Bearer <secret>`, or the subprotocol pair in `websocket` mode. With no secret
 * configured every request passes. In `optional` mode a request without the header passes
 * unauthenticated; a wrong secret never passes.
 */
export function checkAuth(
  presented: Credentials,
  secret: string | undefined,
  mode: AuthMode,
): AuthResult {
  if (mode === "websocket") return checkSubprotocol(presented, secret);
  if (secret === undefined) return { authenticated: true };
  if (!presented.hasAuthorization && mode === "optional") return { authenticated: false };
  if (presented.bearer !== undefined && constantTimeEqual(presented.bearer, secret)) {
    return { authenticated: true };
  }
  const message = !presented.hasAuthorization
    ? 'Missing "Authorization: Bearer <secret>" header. The secret is in ' +
      '<config dir>/extension/auth.json; "hub start --show-config" prints a client config.'
    : "Wrong secret in the Authorization header. It may have been rotated: " +
      '"hub start --show-config" prints the current client config.';
  return {
    authenticated: false,
    response: errorResponse(
      hubError("UNAUTHORIZED", message, undefined, {
        headers: { "www-authenticate": 'Bearer realm="hub"' },
      }),
    ),
  };
}
