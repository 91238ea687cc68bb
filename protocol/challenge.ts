/**
 * The hub proves it knows the secret before a client of ours sends it. Any program can bind the
 * hub's port while the hub is not running; a client that sent `Authorization: Bearer <secret>`
 * (or offered it as a WebSocket subprotocol) to whatever answers would hand the secret to it.
 *
 * So the CLI, the stdio bridge, `hub-plugin` and the extension first ask
 * `GET /auth/challenge?nonce=<fresh random hex>` and send the secret only when the answer is
 * `{ "proof": hex(HMAC-SHA256(key = the secret's UTF-8 bytes,
 *   "hub-challenge-v1\n" + nonce + "\n" + port)) }`, where `port` is the port the client connected
 * to and the hub listens on. Binding the port into the MAC stops a squatter from relaying the nonce
 * to the real hub running on another port: that hub answers for its own port, which does not match.
 *
 * Any other answer, a hub's 409 `NO_SECRET` included, leaves the process unproven and a client of
 * ours sends it nothing more: no request, no WebSocket attempt. A hub set up from the config the
 * client reads always has a secret, so a claim to have none is a stranger's invitation to talk
 * without one (and to be handed tool arguments, or the browser, that way).
 *
 * WebCrypto only (no Deno APIs), so the server, the CLI and the extension's service worker share it.
 */
import { concatBytes } from "./bytes.ts";

export const CHALLENGE_PATH = "/auth/challenge";
/** Separates this use of the secret from any other MAC made with it. */
export const CHALLENGE_LABEL = "hub-challenge-v1";
/** A nonce is 32 to 64 hex characters (128 to 256 bits); clients send 64. */
export const NONCE_PATTERN = /^[0-9a-fA-F]{32,64}$/;
/**
 * The error code (HTTP 409) of a hub that has no secret. Clients that hold a secret treat it as
 * unproven: a hub set up from their config always has one.
 */
export const NO_SECRET_CODE = "NO_SECRET";
/** Bytes of a challenge answer a client reads at most (a real one is about 80). */
export const MAX_ANSWER_BYTES = 4096;

const PROOF_PATTERN = /^[0-9a-f]{64}$/;

export function isNonce(value: string): boolean {
  return NONCE_PATTERN.test(value);
}

/** A fresh nonce: 256 bits from the platform CSPRNG as 64 lowercase hex characters. */
export function newNonce(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** The proof for `nonce` at `port`: 64 lowercase hex characters. */
export async function challengeProof(secret: string, nonce: string, port: number): Promise<string> {
  if (!isNonce(nonce)) throw new Error(`Cannot answer the challenge: "nonce" must be 32-64 hex.`);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`Cannot answer the challenge: port ${port} is not a TCP port.`);
  }
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const message = encoder.encode(`${CHALLENGE_LABEL}\n${nonce}\n${port}`);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, message)));
}

/** Compares two strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i) | 0) ^ b.charCodeAt(i);
  return diff === 0;
}

/** What the process on a port made of the challenge. */
export type HubProof =
  /** It knows the secret: send it. */
  | { kind: "proven" }
  /** It did not prove it: send it nothing more. `reason` is short and safe to show. */
  | { kind: "unproven"; reason: string };

/** The reason given for a 409 NO_SECRET answer. */
export const CLAIMS_NO_SECRET_REASON = "it answered 409 NO_SECRET: it claims to have no secret, " +
  "which a hub set up from this config never does";

export interface ProveOptions {
  port: number;
  secret: string;
  /** The client's fetch (with its own timeout); its errors (nothing listening...) propagate. */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** Asks the process on `127.0.0.1:<port>` to prove it knows `secret`, with a fresh nonce. */
export async function proveHub(options: ProveOptions): Promise<HubProof> {
  const { port, secret } = options;
  const nonce = newNonce();
  const response = await options.fetch(
    `http://127.0.0.1:${port}${CHALLENGE_PATH}?nonce=${nonce}`,
    { redirect: "manual" },
  );
  const body = await readBounded(response);
  if (response.status === 200) {
    const proof = parseJson(body)?.proof;
    if (typeof proof !== "string" || !PROOF_PATTERN.test(proof)) {
      return { kind: "unproven", reason: "its answer to the challenge holds no proof" };
    }
    const expected = await challengeProof(secret, nonce, port);
    return constantTimeEqual(proof, expected)
      ? { kind: "proven" }
      : { kind: "unproven", reason: "its proof is wrong" };
  }
  const error = parseJson(body)?.error as { code?: unknown } | undefined;
  if (response.status === 409 && error?.code === NO_SECRET_CODE) {
    return { kind: "unproven", reason: CLAIMS_NO_SECRET_REASON };
  }
  if (response.status === 404) {
    return { kind: "unproven", reason: `it has no ${CHALLENGE_PATH} route (HTTP 404)` };
  }
  return { kind: "unproven", reason: `it answered the challenge with HTTP ${response.status}` };
}

/** The body as text, at most MAX_ANSWER_BYTES of it (a hostile answer may be endless). */
async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= MAX_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (size > MAX_ANSWER_BYTES) return "";
  return new TextDecoder().decode(concatBytes(chunks));
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
