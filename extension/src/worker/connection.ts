/**
 * The link to the hub: dials `ws://127.0.0.1:<port>/ws` with the secret in the subprotocol,
 * reconnects after 1 s, 2 s, then every 3 s (reset once connected), sends a `ping` every 20 s so
 * Chromium keeps the service worker alive, and treats a link that stopped answering as dead
 * rather than showing a stale "connected". A `chrome.alarms` wake-up (background.ts) calls
 * `ensure()` in case the worker was stopped anyway.
 *
 * Before every attempt the process on the port must prove it knows the secret (an HMAC of a fresh
 * nonce, protocol/challenge.ts): a program that took the port gets no WebSocket attempt at all,
 * so it never sees the secret. That holds for one that claims to have no secret too: it is never
 * dialled without one, or it would become the extension's hub and drive the browser.
 */
import { CLOSE_NO_ANSWER, CLOSE_REPLACED, CLOSE_SECRET_ROTATED } from "../../../protocol/rpc.ts";
import { type HubProof, proveHub } from "../../../protocol/challenge.ts";
import { RpcTransportError } from "../../../protocol/rpc_engine.ts";
import { type HubAddress, readHubAddress, socketUrl } from "./hub_files.ts";
import {
  createRpcPeer,
  type OversizeAnswer,
  type RpcPeer,
  type ServerHandlers,
} from "./rpc_peer.ts";

export const BACKOFF_MS = [1_000, 2_000, 3_000];
export const PING_EVERY_MS = 20_000;
/** No frame at all for this long after a ping: the link is dead. */
export const PONG_WITHIN_MS = 10_000;
/** How long the process on the port has to answer the identity check. */
export const PROOF_TIMEOUT_MS = 5_000;

export type LinkState = "connecting" | "connected" | "disconnected";

export interface LinkStatus {
  state: LinkState;
  /** Another browser profile's extension took the link (close code 4000); waiting for a click. */
  replaced?: boolean;
  port?: number;
  /** Why the last attempt failed or the link closed. */
  lastError?: string;
  /** The process on the port did not prove it knows the secret, so none was offered to it. */
  unproven?: boolean;
  connectedAt?: number;
}

export interface Connection {
  /** Connects unless connected, connecting, or replaced by another profile (see `takeOver`). */
  ensure(): void;
  /** Connects even after another profile's extension took the link (the user asked). */
  takeOver(): void;
  status(): LinkStatus;
  /** The peer of the open link, or undefined while disconnected. */
  peer(): RpcPeer | undefined;
  /** Closes the link and stops retrying and pinging until the next `ensure()`. */
  close(): void;
}

export interface ConnectionEvents {
  onConnected(peer: RpcPeer): void;
  onStatus(status: LinkStatus): void;
  /** The answer to a request whose result is too large to send (see protocol/rpc_engine.ts). */
  oversize?: OversizeAnswer;
}

export function createConnection(handlers: ServerHandlers, events: ConnectionEvents): Connection {
  let socket: WebSocket | undefined;
  let current: RpcPeer | undefined;
  let status: LinkStatus = { state: "disconnected" };
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let lastFrameAt = 0;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  let replaced = false;

  function setStatus(next: LinkStatus) {
    status = next;
    events.onStatus(status);
  }

  function scheduleRetry(delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]) {
    clearTimeout(retryTimer);
    attempt++;
    retryTimer = setTimeout(() => ensure(), delay);
  }

  function startPings(ws: WebSocket) {
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (ws.readyState !== WebSocket.OPEN) return;
      const sentAt = Date.now();
      current?.notify("ping", {});
      clearTimeout(pongTimer);
      pongTimer = setTimeout(() => {
        if (socket !== ws || lastFrameAt >= sentAt) return;
        // Dead now, not when Chromium gives up on the closing handshake (up to 60 s later).
        onClosed(ws, CLOSE_NO_ANSWER, "the hub stopped answering");
        ws.close(CLOSE_NO_ANSWER, "no answer to ping");
      }, PONG_WITHIN_MS);
    }, PING_EVERY_MS);
  }

  function onClosed(ws: WebSocket, code: number, reason: string) {
    if (socket !== ws) return;
    socket = undefined;
    clearInterval(pingTimer);
    clearTimeout(pongTimer);
    current?.close(new RpcTransportError("The connection to the hub closed"));
    current = undefined;
    if (code === CLOSE_REPLACED) {
      // Another browser profile's extension took over. Retrying would take the link back and
      // forth forever, so this one waits until the user clicks its icon (takeOver).
      replaced = true;
      const lastError = "another browser profile's hub extension is connected; open the hub " +
        'side panel and choose "Connect this browser" to connect this one instead';
      return setStatus({ state: "disconnected", port: status.port, lastError, replaced });
    }
    const why = reason ||
      (code === 1006
        ? "hub not reachable (not running, or the secret in auth.json is not the hub's)"
        : `closed (${code})`);
    setStatus({ state: "disconnected", port: status.port, lastError: why });
    scheduleRetry(code === CLOSE_SECRET_ROTATED ? 0 : undefined); // auth.json holds the new one
  }

  async function dial(placeholder: WebSocket) {
    let address;
    try {
      address = await readHubAddress();
    } catch (error) {
      if (socket !== placeholder) return; // closed meanwhile
      setStatus({ state: "disconnected", lastError: (error as Error).message });
      return scheduleRetry();
    }
    if (socket !== placeholder) return;
    let proof: HubProof;
    try {
      proof = await proveHub({ ...address, fetch: fetchWithTimeout });
    } catch {
      if (socket !== placeholder) return;
      const lastError = `hub not reachable: nothing answers on 127.0.0.1:${address.port}`;
      setStatus({ state: "disconnected", port: address.port, lastError });
      return scheduleRetry();
    }
    if (socket !== placeholder) return;
    if (proof.kind !== "proven") {
      setStatus({
        state: "disconnected",
        port: address.port,
        lastError: unprovenText(address.port, proof.reason),
        unproven: true,
      });
      return scheduleRetry();
    }
    open(placeholder, address);
  }

  /** Dials the hub that just proved it knows `address.secret`. */
  function open(placeholder: WebSocket, address: HubAddress) {
    if (socket !== placeholder) return;
    const ws = new WebSocket(socketUrl(address.port), ["hub", address.secret]);
    socket = ws;
    const peer = createRpcPeer((text) => ws.send(text), handlers, events.oversize);
    ws.onopen = () => {
      if (socket !== ws) return;
      attempt = 0;
      current = peer;
      lastFrameAt = Date.now();
      setStatus({ state: "connected", port: address.port, connectedAt: Date.now() });
      startPings(ws);
      events.onConnected(peer);
    };
    ws.onmessage = (event) => {
      lastFrameAt = Date.now();
      peer.receive(event.data);
    };
    ws.onclose = (event) => onClosed(ws, event.code, event.reason);
  }

  function ensure() {
    if (socket || replaced) return;
    clearTimeout(retryTimer);
    setStatus({ state: "connecting", port: status.port, lastError: status.lastError });
    // A placeholder so a second ensure() while the files are read does not dial twice.
    socket = {} as WebSocket;
    const placeholder = socket;
    void dial(placeholder).finally(() => {
      if (socket === placeholder) socket = undefined;
    });
  }

  function close() {
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    clearTimeout(pongTimer);
    const ws = socket;
    socket = undefined;
    current?.close(new RpcTransportError("The connection to the hub was closed"));
    current = undefined;
    attempt = 0;
    if (ws instanceof WebSocket) ws.close(1000, "closed by the extension");
    setStatus({ state: "disconnected", port: status.port, lastError: "closed by the extension" });
  }

  function takeOver() {
    replaced = false;
    ensure();
  }

  return { ensure, takeOver, status: () => status, peer: () => current, close };
}

function fetchWithTimeout(url: string, init: RequestInit): Promise<Response> {
  return fetch(url, { ...init, cache: "no-store", signal: AbortSignal.timeout(PROOF_TIMEOUT_MS) });
}

/** Why no attempt was made: the words the badge and the side panel show. */
export function unprovenText(port: number, reason: string): string {
  return `another program is on port ${port}: it did not prove it knows the hub secret ` +
    `(${reason}), so the secret was not sent to it`;
}
