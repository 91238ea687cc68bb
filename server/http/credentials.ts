/**
 * The hub's secret as a request presents it, read in one place: `Authorization: Bearer <secret>`,
 * or `Sec-WebSocket-Protocol: hub, <secret>` on the extension's `/ws` upgrade. The handler reads a
 * request's credentials once (`credentialsOf`) and checks them against the current secret, and
 * against the fresh one when that refused (guards.ts): that read is the one that authorizes. The
 * connection guard asks `carriesSecret` about the raw request heads of a connection that has not
 * shown the secret yet, only to keep the secret's holders longest at the cap, never to authorize
 * (docs/decisions/025-proven-connections-go-last.md).
 */
import { constantTimeEqual } from "../../protocol/challenge.ts";

/** The subprotocol the hub selects on `/ws`; the secret follows it in the client's list. */
export const WS_PROTOCOL = "hub";

/** What a request presents, parsed; nothing here says whether it is right. */
export interface Credentials {
  /** Whether the request has an Authorization header at all. */
  hasAuthorization: boolean;
  /** The token of `Authorization: Bearer <token>`; undefined when the header is not that shape. */
  bearer?: string;
  /** Whether Sec-WebSocket-Protocol offers `hub` first. */
  offersHubProtocol: boolean;
  /** The subprotocol offered after `hub` (the secret on `/ws`); undefined when there is none. */
  wsSecret?: string;
}

/** Parses the two header values (repeated headers joined by ", "); null or undefined: absent. */
export function readCredentials(
  authorization: string | null | undefined,
  wsProtocol: string | null | undefined,
): Credentials {
  const bearer = authorization == null
    ? undefined
    : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  const offered = (wsProtocol ?? "").split(",").map((p) => p.trim());
  return {
    hasAuthorization: authorization != null,
    bearer,
    offersHubProtocol: offered[0] === WS_PROTOCOL,
    wsSecret: offered.length >= 2 ? offered[1] : undefined,
  };
}

/** A request's credentials, read once per request. */
export function credentialsOf(req: Request): Credentials {
  return readCredentials(
    req.headers.get("authorization"),
    req.headers.get("sec-websocket-protocol"),
  );
}

/** Longer values are not the secret; the connection guard does not compare them. */
const MAX_CREDENTIAL_CHARS = 512;

/** Compared in constant time; false without a secret, or when neither header carries it. */
export function carriesSecret(
  authorization: string | undefined,
  wsProtocol: string | undefined,
  secret: string | undefined,
): boolean {
  if (secret === undefined) return false;
  const presented = readCredentials(
    authorization !== undefined && authorization.length <= MAX_CREDENTIAL_CHARS
      ? authorization
      : undefined,
    wsProtocol !== undefined && wsProtocol.length <= MAX_CREDENTIAL_CHARS ? wsProtocol : undefined,
  );
  if (presented.bearer !== undefined && constantTimeEqual(presented.bearer, secret)) return true;
  return presented.offersHubProtocol && presented.wsSecret !== undefined &&
    constantTimeEqual(presented.wsSecret, secret);
}
