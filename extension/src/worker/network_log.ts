/**
 * Every tab's network requests since its top document started, recorded from `chrome.webRequest`
 * (no debugger, nothing in the page): browser_network_requests lists them, browser_network_request
 * shows one with its headers. The listeners are non-blocking (MV3 allows no other for a normal
 * extension): they see requests, never delay them.
 *
 * Bounded: the newest MAX_REQUESTS_PER_TAB requests per tab, MAX_TABS tabs (the least recently
 * active tab's log goes first), URLs cut at MAX_URL_CHARS, headers only for the newest
 * HEADERS_KEPT requests of a tab and at most HEADER_CHARS characters per direction. Secrets (values
 * of headers and query parameters whose name says so, a URL's user:password: network_redact.ts) are
 * redacted when recorded, so they are never held. A tab whose log went for the 20-tab bound says so
 * (`note`) until its next page.
 *
 * A request that follows a redirect keeps Chromium's `requestId`; each hop after the first is its
 * own entry, `<id>-<n>`. A tab's log restarts when its top frame commits a new document: what the
 * new document's main_frame request and later requests did is kept, the old page's requests go.
 */
import {
  MAX_REQUESTS_PER_TAB,
  type NetworkBody,
  type NetworkEntry,
  type NetworkEntryDetail,
  type NetworkHeader,
  RESOURCE_TYPES,
  type ResourceType,
} from "../../../protocol/browser_methods/network.ts";
import { type BodySessions, createNetworkBodies } from "./network_bodies.ts";
import { isSecretHeader, keptHeaderValue, keptUrl } from "./network_redact.ts";

/** The most tabs whose log is kept. */
export const MAX_TABS = 20;
/** Only the newest this many requests of a tab keep their headers. */
export const HEADERS_KEPT = 100;
/** The most header characters (names and values) kept per request and direction. */
export const HEADER_CHARS = 4_000;
/** The most headers kept per request and direction. */
const MAX_HEADERS = 60;
/** The most characters of one header value kept. */
const HEADER_VALUE_CHARS = 1_000;
/** How many tabs whose log went (MAX_TABS) are remembered, to say so. */
const DROPPED_TABS_KEPT = 1_000;

/** The filter of browser_network_requests. */
export interface NetworkFilter {
  urlIncludes?: string;
  resourceTypes?: readonly string[];
  statuses?: readonly number[];
  failedOnly?: boolean;
  limit: number;
}

export interface NetworkLog {
  /** Registers the chrome.webRequest (and tab) listeners; call once, at the worker's top level. */
  listen(): void;
  list(tabId: number, filter: NetworkFilter): {
    requests: NetworkEntry[];
    total: number;
    truncated: boolean;
    note?: string;
  };
  get(tabId: number, requestId: string): NetworkEntryDetail | undefined;
  /** Enables the debugger's Network domain in every session hub opens (for bodies). */
  watch(sessions: BodySessions): void;
  /** The response body of `entry`, through the debugger, bounded; throws BODY_UNAVAILABLE. */
  body(sessions: BodySessions, tabId: number, entry: NetworkEntryDetail): Promise<NetworkBody>;
  /** The recorder's event handlers (listen() wires them; tests call them). */
  readonly events: NetworkEvents;
}

/** A header as chrome.webRequest gives it. */
interface HttpHeader {
  name: string;
  value?: string;
  binaryValue?: ArrayLike<number>;
}
type Headers = HttpHeader[] | undefined;

/** What the recorder takes from each webRequest event (the fields Chromium sends). */
export interface RequestEvent {
  requestId: string;
  tabId: number;
  frameId: number;
  url: string;
  method: string;
  type: string;
  timeStamp: number;
  documentId?: string;
}
export interface ResponseEvent extends RequestEvent {
  statusCode?: number;
  statusLine?: string;
  fromCache?: boolean;
  ip?: string;
  responseHeaders?: Headers;
  redirectUrl?: string;
  error?: string;
  requestHeaders?: Headers;
}

export interface NetworkEvents {
  beforeRequest(details: RequestEvent): void;
  sendHeaders(details: ResponseEvent): void;
  beforeRedirect(details: ResponseEvent): void;
  completed(details: ResponseEvent): void;
  errorOccurred(details: ResponseEvent): void;
  /** The tab's top frame committed a new document (webNavigation.onCommitted, frame 0). */
  committed(tabId: number, timeStamp: number): void;
  removed(tabId: number): void;
}

interface Entry {
  id: string;
  url: string;
  method: string;
  type: ResourceType;
  frameId: number;
  start: number;
  end?: number;
  status?: number;
  statusText?: string;
  failed: boolean;
  errorText?: string;
  fromCache?: boolean;
  ip?: string;
  bytes?: number;
  redirectUrl?: string;
  requestHeaders?: NetworkHeader[];
  responseHeaders?: NetworkHeader[];
  headersCut?: boolean;
  headersDropped?: boolean;
}

interface TabLog {
  entries: Entry[];
  /** Chromium's requestId → its current hop, while in flight. */
  open: Map<string, Entry>;
  /** Hops seen per Chromium requestId (for `<id>-<n>`), while in flight. */
  hops: Map<string, number>;
  /** When the top frame's latest main_frame request started (the next document's start). */
  mainStart?: number;
  /** Requests of the current document dropped from the ring. */
  dropped: number;
  /** The tab's earlier log went (MAX_TABS) during its current document. */
  evicted?: boolean;
  touched: number;
}

const KNOWN_TYPES = new Set<string>(RESOURCE_TYPES);

/** Headers as kept: secrets redacted, values cut, at most HEADER_CHARS characters in all. */
export function keepHeaders(headers: Headers): { headers: NetworkHeader[]; cut: boolean } {
  const kept: NetworkHeader[] = [];
  let chars = 0;
  let cut = false;
  for (const header of headers ?? []) {
    const raw = header.value ?? (header.binaryValue ? `[${header.binaryValue.length} bytes]` : "");
    const name = header.name.slice(0, 200);
    let value = keptHeaderValue(name, raw);
    if (!isSecretHeader(name) && value.length > HEADER_VALUE_CHARS) {
      value = `${value.slice(0, HEADER_VALUE_CHARS)}…[cut: ${value.length} characters]`;
      cut = true;
    }
    if (kept.length >= MAX_HEADERS || chars + name.length + value.length > HEADER_CHARS) {
      return { headers: kept, cut: true };
    }
    chars += name.length + value.length;
    kept.push({ name, value });
  }
  return { headers: kept, cut };
}

function contentLength(headers: Headers): number | undefined {
  const header = headers?.find((h) => h.name.toLowerCase() === "content-length");
  const bytes = Number(header?.value);
  return header?.value && Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : undefined;
}

function summary(entry: Entry): NetworkEntry {
  return {
    requestId: entry.id,
    url: entry.url,
    method: entry.method,
    resourceType: entry.type,
    status: entry.status ?? null,
    failed: entry.failed,
    ...(entry.errorText !== undefined ? { errorText: entry.errorText } : {}),
    ...(entry.bytes !== undefined ? { bytes: entry.bytes } : {}),
    durationMs: entry.end === undefined ? null : Math.max(0, Math.round(entry.end - entry.start)),
    startedAt: new Date(entry.start).toISOString(),
  };
}

function detail(entry: Entry): NetworkEntryDetail {
  const note = entry.headersDropped
    ? `Headers are kept only for a tab's newest ${HEADERS_KEPT} requests; this one is older.`
    : entry.headersCut
    ? `Headers were cut to ${HEADER_CHARS} characters per direction (and long values to ` +
      `${HEADER_VALUE_CHARS}).`
    : undefined;
  return {
    ...summary(entry),
    ...(entry.statusText ? { statusText: entry.statusText } : {}),
    ...(entry.fromCache !== undefined ? { fromCache: entry.fromCache } : {}),
    ...(entry.ip ? { remoteAddress: entry.ip } : {}),
    ...(entry.redirectUrl ? { redirectUrl: entry.redirectUrl } : {}),
    frameId: entry.frameId,
    requestHeaders: entry.requestHeaders ?? [],
    responseHeaders: entry.responseHeaders ?? [],
    ...(note ? { headersNote: note } : {}),
  };
}

/** The status text of a status line (`HTTP/1.1 404 Not Found` → `Not Found`). */
function statusText(line: string | undefined): string | undefined {
  const text = line?.replace(/^\S+\s+\d{3}\s*/, "").slice(0, 200);
  return text || undefined;
}

/** Made once, at the worker's top level. `now` is for tests. */
export function createNetworkLog(now: () => number = Date.now): NetworkLog {
  const tabs = new Map<number, TabLog>();
  /** Tabs whose log went for the MAX_TABS bound, oldest first. */
  const evicted = new Set<number>();
  const bodies = createNetworkBodies(now);

  function tabLog(tabId: number): TabLog {
    let log = tabs.get(tabId);
    if (!log) {
      if (tabs.size >= MAX_TABS) forgetLeastActive();
      log = { entries: [], open: new Map(), hops: new Map(), dropped: 0, touched: now() };
      if (evicted.delete(tabId)) log.evicted = true;
      tabs.set(tabId, log);
    }
    log.touched = now();
    return log;
  }

  function forgetLeastActive() {
    let oldest: number | undefined;
    let when = Infinity;
    for (const [tabId, log] of tabs) {
      if (log.touched < when) [oldest, when] = [tabId, log.touched];
    }
    if (oldest === undefined) return;
    tabs.delete(oldest);
    evicted.add(oldest);
    if (evicted.size > DROPPED_TABS_KEPT) evicted.delete(evicted.values().next().value!);
  }

  function push(log: TabLog, entry: Entry) {
    log.entries.push(entry);
    if (log.entries.length > MAX_REQUESTS_PER_TAB) {
      log.entries.splice(0, log.entries.length - MAX_REQUESTS_PER_TAB);
      log.dropped++;
    }
    const old = log.entries[log.entries.length - 1 - HEADERS_KEPT];
    if (old && !old.headersDropped) {
      old.requestHeaders = old.responseHeaders = undefined;
      old.headersDropped = true;
    }
  }

  /** The in-flight hop of a request, when its tab is recorded. */
  function open(details: { tabId: number; requestId: string }): Entry | undefined {
    return details.tabId < 0 ? undefined : tabs.get(details.tabId)?.open.get(details.requestId);
  }

  function responded(entry: Entry, details: ResponseEvent) {
    if (details.statusCode !== undefined && details.statusCode > 0) {
      entry.status = details.statusCode;
    }
    entry.statusText = statusText(details.statusLine) ?? entry.statusText;
    if (details.fromCache !== undefined) entry.fromCache = details.fromCache;
    if (details.ip) entry.ip = details.ip.slice(0, 100);
    if (details.responseHeaders && !entry.headersDropped) {
      const kept = keepHeaders(details.responseHeaders);
      entry.responseHeaders = kept.headers;
      entry.headersCut ||= kept.cut;
      entry.bytes = contentLength(details.responseHeaders) ?? entry.bytes;
    }
  }

  function ended(details: ResponseEvent) {
    const log = details.tabId < 0 ? undefined : tabs.get(details.tabId);
    log?.open.delete(details.requestId);
    log?.hops.delete(details.requestId);
  }

  const events: NetworkEvents = {
    beforeRequest(details) {
      if (details.tabId < 0) return;
      const log = tabLog(details.tabId);
      const hop = log.hops.get(details.requestId) ?? 0;
      // A navigation starts at its first hop: the redirects it follows belong to the new page.
      if (details.type === "main_frame" && hop === 0) log.mainStart = details.timeStamp;
      log.hops.set(details.requestId, hop + 1);
      const entry: Entry = {
        id: hop === 0 ? details.requestId : `${details.requestId}-${hop}`,
        url: keptUrl(details.url),
        method: details.method.slice(0, 20),
        type: (KNOWN_TYPES.has(details.type) ? details.type : "other") as ResourceType,
        frameId: details.frameId,
        start: details.timeStamp,
        failed: false,
      };
      log.open.set(details.requestId, entry);
      push(log, entry);
      // Requests whose end Chromium never reported (a worker restart) are let go of.
      for (const map of [log.open, log.hops]) {
        if (map.size > MAX_REQUESTS_PER_TAB) map.delete(map.keys().next().value!);
      }
    },
    sendHeaders(details) {
      const entry = open(details);
      if (!entry || entry.headersDropped) return;
      const kept = keepHeaders(details.requestHeaders);
      entry.requestHeaders = kept.headers;
      entry.headersCut ||= kept.cut;
    },
    beforeRedirect(details) {
      const entry = open(details);
      if (!entry) return;
      responded(entry, details);
      entry.end = details.timeStamp;
      if (details.redirectUrl) entry.redirectUrl = keptUrl(details.redirectUrl);
      // The next hop's beforeRequest comes with the same requestId.
      tabs.get(details.tabId)?.open.delete(details.requestId);
    },
    completed(details) {
      const entry = open(details);
      if (entry) {
        responded(entry, details);
        entry.end = details.timeStamp;
      }
      ended(details);
    },
    errorOccurred(details) {
      const entry = open(details);
      if (entry) {
        entry.failed = true;
        entry.errorText = (details.error ?? "failed").slice(0, 200);
        entry.end = details.timeStamp;
      }
      ended(details);
    },
    committed(tabId, timeStamp) {
      const log = tabs.get(tabId);
      if (!log) return;
      const since = log.mainStart ?? timeStamp;
      log.mainStart = undefined;
      log.entries = log.entries.filter((entry) => entry.start >= since);
      log.dropped = 0;
      log.evicted = false;
    },
    removed(tabId) {
      tabs.delete(tabId);
      evicted.delete(tabId);
    },
  };

  return {
    events,
    watch: (sessions) => bodies.watch(sessions),
    body: (sessions, tabId, entry) => bodies.read(sessions, tabId, entry),
    listen() {
      const all = { urls: ["<all_urls>"] };
      chrome.webRequest.onBeforeRequest.addListener((d) => void events.beforeRequest(d), all);
      chrome.webRequest.onSendHeaders.addListener((d) => void events.sendHeaders(d), all, [
        "requestHeaders",
      ]);
      chrome.webRequest.onBeforeRedirect.addListener(
        (d) => void events.beforeRedirect(d),
        all,
        ["responseHeaders"],
      );
      chrome.webRequest.onCompleted.addListener((d) => void events.completed(d), all, [
        "responseHeaders",
      ]);
      chrome.webRequest.onErrorOccurred.addListener((d) => void events.errorOccurred(d), all);
      chrome.webNavigation.onCommitted.addListener(({ tabId, frameId, timeStamp }) => {
        if (frameId === 0) events.committed(tabId, timeStamp);
      });
      chrome.tabs.onRemoved.addListener((tabId) => events.removed(tabId));
      chrome.tabs.onReplaced.addListener((_added, removed) => events.removed(removed));
    },
    list(tabId, filter) {
      const log = tabs.get(tabId);
      const droppedNote = log?.evicted || (!log && evicted.has(tabId))
        ? {
          note: `This tab's earlier requests were dropped: the log keeps at most ${MAX_TABS} ` +
            "tabs and this one was the least recently active. Requests from then on are listed " +
            "(its next page load starts a complete list).",
        }
        : {};
      if (!log) {
        return {
          requests: [],
          total: 0,
          truncated: droppedNote.note !== undefined,
          ...droppedNote,
        };
      }
      const needle = filter.urlIncludes?.toLowerCase();
      const types = filter.resourceTypes ? new Set(filter.resourceTypes) : undefined;
      const statuses = filter.statuses ? new Set(filter.statuses) : undefined;
      const matching = log.entries.filter((entry) =>
        (needle === undefined || entry.url.toLowerCase().includes(needle)) &&
        (!types || types.has(entry.type)) &&
        (!statuses || (entry.status !== undefined && statuses.has(entry.status))) &&
        (!filter.failedOnly || entry.failed || (entry.status ?? 0) >= 400)
      );
      const newest = matching.slice(Math.max(0, matching.length - filter.limit));
      return {
        requests: newest.map(summary),
        total: matching.length,
        truncated: newest.length < matching.length || log.dropped > 0 || log.evicted === true,
        ...droppedNote,
      };
    },
    get(tabId, requestId) {
      const entry = tabs.get(tabId)?.entries.find((e) => e.id === requestId);
      return entry && detail(entry);
    },
  };
}
