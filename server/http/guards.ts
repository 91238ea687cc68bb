/**
 * Request guards, run in this order by the handler: Host, Origin, Bearer auth. Each returns an
 * error Response to stop the request, or undefined to let it through.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { errorResponse, HttpError } from "./http_error.ts";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const EXTENSION_SCHEMES = ["chrome-extension:"];

/** Splits a Host header into host name and port; undefined when it is malformed. */
export function parseHostHeader(value: string): { host: string; port?: string } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return undefined;
  return { host: match[1].toLowerCase(), port: match[2] };
}

/** Rejects requests whose Host is not a loopback name (defeats DNS rebinding). */
export function checkHost(req: Request): Response | undefined {
  const value = req.headers.get("host");
  const parsed = value ? parseHostHeader(value) : undefined;
  if (parsed && LOOPBACK_HOSTS.has(parsed.host)) return undefined;
  return errorResponse(
    new HttpError(
      403,
      "FORBIDDEN_HOST",
      `Host "${value ?? ""}" is not allowed: hub only answers requests addressed to ` +
        `127.0.0.1, localhost or [::1].`,
    ),
  );
}

/** Rejects requests from web pages: any Origin other than a browser extension's. */
export function checkOrigin(req: Request): Response | undefined {
  const origin = req.headers.get("origin");
  if (origin === null) return undefined;
  if (EXTENSION_SCHEMES.some((scheme) => origin.startsWith(`${scheme}//`))) return undefined;
  return errorResponse(
    new HttpError(
      403,
      "FORBIDDEN_ORIGIN",
      `Requests from web pages are not allowed (Origin "${origin}"). ` +
        `Call hub from a native client or the hub extension.`,
    ),
  );
}

/** Compares two strings in time independent of where they differ. */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** `websocket`: the secret travels as `Sec-WebSocket-Protocol: hub, <secret>` (SPEC "Authentication" 3). */
export type AuthMode = "required" | "optional" | "websocket";

/** The subprotocol the hub selects on `/ws`; the secret follows it in the client's list. */
export const WS_PROTOCOL = "hub";

/** Checks `Sec-WebSocket-Protocol: hub, <secret>` on a `/ws` upgrade. */
export function checkWebSocketProtocol(req: Request, secret: string | undefined): AuthResult {
  const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
  const fail = (message: string): AuthResult => ({
    authenticated: false,
    response: errorResponse(new HttpError(401, "UNAUTHORIZED", message)),
  });
  if (offered[0] !== WS_PROTOCOL) {
    return fail(
      `Offer the WebSocket subprotocols "${WS_PROTOCOL}, <secret>" ` +
        "(Sec-WebSocket-Protocol); the secret is in <config dir>/extension/auth.json.",
    );
  }
  if (secret === undefined) return { authenticated: true };
  if (offered.length < 2 || !secretsEqual(offered[1], secret)) {
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
 * Checks `Authorization: Bearer <secret>`. With no secret configured every request passes. In
 * `optional` mode a request without the header passes unauthenticated; a wrong secret never passes.
 */
export function checkBearer(req: Request, secret: string | undefined, mode: AuthMode): AuthResult {
  if (mode === "websocket") return checkWebSocketProtocol(req, secret);
  if (secret === undefined) return { authenticated: true };
  const header = req.headers.get("authorization");
  if (header === null && mode === "optional") return { authenticated: false };
  const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match && secretsEqual(match[1], secret)) return { authenticated: true };
  const message = header === null
    ? 'Missing "Authorization: Bearer <secret>" header. The secret is in ' +
      '<config dir>/extension/auth.json; "hub start --show-config" prints a client config.'
    : "Wrong secret in the Authorization header. It may have been rotated: " +
      '"hub start --show-config" prints the current client config.';
  return {
    authenticated: false,
    response: errorResponse(
      new HttpError(401, "UNAUTHORIZED", message, { "www-authenticate": 'Bearer realm="hub"' }),
    ),
  };
}
