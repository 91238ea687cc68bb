/**
 * Whether a request head proves that its connection belongs to someone who holds the hub's secret:
 * `Authorization: Bearer <secret>`, or `Sec-WebSocket-Protocol: hub, <secret>` on the extension's
 * upgrade. The connection guard keeps such connections longest when a flood fills the cap.
 */
import { secretsEqual, WS_PROTOCOL } from "./guards.ts";

/** Longer values are not the secret; they are not compared. */
const MAX_CREDENTIAL_CHARS = 512;

/** Compared in constant time; false without a secret, or when neither header carries it. */
export function carriesSecret(
  authorization: string | undefined,
  wsProtocol: string | undefined,
  secret: string | undefined,
): boolean {
  if (secret === undefined) return false;
  if (authorization !== undefined && authorization.length <= MAX_CREDENTIAL_CHARS) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (token !== undefined && secretsEqual(token, secret)) return true;
  }
  if (wsProtocol !== undefined && wsProtocol.length <= MAX_CREDENTIAL_CHARS) {
    const offered = wsProtocol.split(",").map((p) => p.trim());
    if (offered[0] === WS_PROTOCOL && offered.length >= 2 && secretsEqual(offered[1], secret)) {
      return true;
    }
  }
  return false;
}
