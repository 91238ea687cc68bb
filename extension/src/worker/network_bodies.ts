/**
 * Response bodies for browser_network_request, through the debugger: `chrome.webRequest` never
 * sees a body. Every debugger session hub opens gets `Network.enable` (with bounded buffers), and
 * the requests Chromium reports to it (`Network.requestWillBeSent`) are noted per tab; a
 * webRequest entry is matched to one of them by URL, method and start time (the two APIs number
 * requests differently), and `Network.getResponseBody` reads the body.
 *
 * Chromium keeps a body only for a request its debugger recorded, while attached, and only while
 * its buffer holds it: a request made before hub attached answers BODY_UNAVAILABLE, saying so.
 */
import { hubError } from "../../../protocol/errors.ts";
import { fromBase64 } from "../../../protocol/bytes.ts";
import {
  MAX_BODY_CHARS,
  MAX_REQUESTS_PER_TAB,
  type NetworkBody,
  type NetworkEntryDetail,
} from "../../../protocol/browser_methods/network.ts";
import { keptUrl } from "./network_redact.ts";

/** Chromium keeps at most this much of all bodies per session, and of one body. */
export const BODY_BUFFER_BYTES = 20_000_000;
export const BODY_MAX_BYTES = 5_000_000;
/** The most start-time difference between a webRequest entry and the debugger's request. */
const MATCH_MS = 3_000;

type Params = Record<string, unknown>;

/** What reading bodies needs of the debugger sessions (debugger_sessions.ts provides it). */
export interface BodySession {
  readonly tabId: number;
  send<T = Params>(
    method: string,
    params?: Params,
    options?: { sessionId?: string; timeoutMs?: number },
  ): Promise<T>;
}
export interface BodySessions {
  session(tabId: number): Promise<BodySession>;
  current(tabId: number): BodySession | undefined;
  onSession(hook: (session: BodySession, sessionId: string | undefined) => Promise<void>): void;
  onEvent(
    listener: (
      event: { tabId: number; sessionId?: string; method: string; params: Params },
    ) => void,
  ): () => void;
  onDetach(listener: (tabId: number, reason: string) => void): () => void;
}

/** A request the debugger saw. */
interface Seen {
  id: string;
  sessionId?: string;
  url: string;
  method: string;
  wallMs: number;
}

interface TabSeen {
  requests: Seen[];
  /** When Network.enable answered for the tab's page (epoch ms). */
  since: number;
}

export interface NetworkBodies {
  /** Enables the Network domain in every session and notes the requests each reports. */
  watch(sessions: BodySessions): void;
  /** The body of `entry` (a request of tab `tabId`), bounded; throws BODY_UNAVAILABLE. */
  read(sessions: BodySessions, tabId: number, entry: NetworkEntryDetail): Promise<NetworkBody>;
}

const TEXT_TYPES =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql)|image\/svg)/i;

function unavailable(message: string): never {
  throw hubError("BODY_UNAVAILABLE", message);
}

/** Throws BODY_UNAVAILABLE when `entry` can have no body (failed, a redirect, not finished). */
function checkHasBody(entry: NetworkEntryDetail): void {
  if (entry.failed) {
    unavailable(`Request ${entry.requestId} failed (${entry.errorText}): it has no body.`);
  }
  if (entry.redirectUrl) {
    unavailable(
      `Request ${entry.requestId} was a redirect to ${entry.redirectUrl}: it has no body. ` +
        "Read the request it led to (the next id, <id>-<n>).",
    );
  }
  if (entry.status === null) {
    unavailable(`Request ${entry.requestId} has not finished yet: ask again once it has.`);
  }
}

/** The debugger's request nearest in time to `entry` with its URL and method (within MATCH_MS). */
function closest(requests: readonly Seen[], entry: NetworkEntryDetail): Seen | undefined {
  const started = Date.parse(entry.startedAt);
  return requests
    .filter((s) =>
      s.url === entry.url && s.method === entry.method &&
      Math.abs(s.wallMs - started) <= MATCH_MS
    )
    .sort((a, b) => Math.abs(a.wallMs - started) - Math.abs(b.wallMs - started))[0];
}

/** Why no request the debugger saw matches `entry`: not attached then, or not seen. */
function notSeen(tabId: number, entry: NetworkEntryDetail, wasAttached?: TabSeen): never {
  const before = !wasAttached || Date.parse(entry.startedAt) < wasAttached.since;
  unavailable(
    before
      ? `hub's debugger was not attached to tab ${tabId} when request ${entry.requestId} ` +
        "ran, and Chromium keeps a response body only for requests its debugger " +
        "recorded. It is attached now (until about 30 s without use): repeat what makes " +
        "the request (or reload the page with browser_reload_tab), then read the new " +
        "request's id from browser_network_requests."
      : `The debugger did not see request ${entry.requestId} (${entry.url}), so its body ` +
        "is not available. Repeat what makes the request and read the new one.",
  );
}

/** Notes a Network.requestWillBeSent of the debugger in its tab's list (each redirect hop too). */
function noteRequest(
  tabs: Map<number, TabSeen>,
  now: () => number,
  { tabId, sessionId, params }: { tabId: number; sessionId?: string; params: Params },
): void {
  const request = params.request as { url?: string; method?: string } | undefined;
  if (typeof params.requestId !== "string" || typeof request?.url !== "string") return;
  let seen = tabs.get(tabId);
  if (!seen) tabs.set(tabId, seen = { requests: [], since: now() });
  const wall = typeof params.wallTime === "number" ? params.wallTime * 1000 : now();
  // A redirect reports the same requestId again, with the next URL: that is a new hop.
  seen.requests.push({
    id: params.requestId,
    ...(sessionId ? { sessionId } : {}),
    // Redacted as the log's entries are (they are compared), so no secret is held here.
    url: keptUrl(request.url),
    method: String(request.method ?? "GET"),
    wallMs: wall,
  });
  if (seen.requests.length > MAX_REQUESTS_PER_TAB) seen.requests.shift();
}

export function createNetworkBodies(now: () => number = Date.now): NetworkBodies {
  const tabs = new Map<number, TabSeen>();

  return {
    watch(sessions) {
      sessions.onSession(async (session, sessionId) => {
        await session.send("Network.enable", {
          maxTotalBufferSize: BODY_BUFFER_BYTES,
          maxResourceBufferSize: BODY_MAX_BYTES,
        }, sessionId === undefined ? undefined : { sessionId });
        if (sessionId === undefined && !tabs.has(session.tabId)) {
          tabs.set(session.tabId, { requests: [], since: now() });
        }
      });
      sessions.onEvent((event) => {
        if (event.method === "Network.requestWillBeSent") noteRequest(tabs, now, event);
      });
      sessions.onDetach((tabId) => tabs.delete(tabId));
    },

    async read(sessions, tabId, entry) {
      checkHasBody(entry);
      const wasAttached = tabs.get(tabId);
      const session = await sessions.session(tabId);
      const seen = closest(tabs.get(tabId)?.requests ?? [], entry);
      if (!seen) notSeen(tabId, entry, wasAttached);
      let answer: { body?: string; base64Encoded?: boolean };
      try {
        answer = await session.send(
          "Network.getResponseBody",
          { requestId: seen.id },
          seen.sessionId ? { sessionId: seen.sessionId } : undefined,
        );
      } catch (error) {
        unavailable(
          `Chromium no longer holds the body of request ${entry.requestId} ` +
            `(${String((error as Error)?.message ?? error).slice(0, 200)}): it keeps bodies ` +
            `up to ${BODY_MAX_BYTES / 1_000_000} MB each while the page lives. Repeat what ` +
            "makes the request and read the new one.",
        );
      }
      return bounded(answer.body ?? "", answer.base64Encoded === true, mimeType(entry));
    },
  };
}

function mimeType(entry: NetworkEntryDetail): string | undefined {
  const header = entry.responseHeaders.find((h) => h.name.toLowerCase() === "content-type");
  return header?.value.split(";")[0].trim().slice(0, 100) || undefined;
}

/** The body as text (text types) or base64, cut at MAX_BODY_CHARS. */
export function bounded(body: string, base64: boolean, mime: string | undefined): NetworkBody {
  const textual = !mime || TEXT_TYPES.test(mime);
  let bytes: number;
  let encoding: NetworkBody["encoding"];
  let data: string;
  if (!base64) {
    bytes = new TextEncoder().encode(body).length;
    [encoding, data] = ["text", body];
  } else {
    const decoded = fromBase64(body);
    bytes = decoded.length;
    if (textual) [encoding, data] = ["text", new TextDecoder().decode(decoded)];
    else [encoding, data] = ["base64", body];
  }
  const truncated = data.length > MAX_BODY_CHARS;
  return {
    ...(mime ? { mimeType: mime } : {}),
    bytes,
    encoding,
    data: truncated ? data.slice(0, MAX_BODY_CHARS) : data,
    truncated,
  };
}
