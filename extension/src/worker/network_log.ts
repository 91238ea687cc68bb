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
} from "../../../protocol/browser_methods/network.ts";
import { type BodySessions, createNetworkBodies } from "./network_bodies.ts";
import {
  detail,
  type Entry,
  HEADERS_KEPT,
  matching,
  type NetworkFilter,
  newEntry,
  type RequestEvent,
  responded,
  type ResponseEvent,
  sentHeaders,
  summary,
} from "./network_entry.ts";
import { keptUrl } from "./network_redact.ts";

export { HEADER_CHARS, HEADERS_KEPT, keepHeaders } from "./network_entry.ts";
export type { NetworkFilter, RequestEvent, ResponseEvent } from "./network_entry.ts";

/** The most tabs whose log is kept. */
export const MAX_TABS = 20;
/** How many tabs whose log went (MAX_TABS) are remembered, to say so. */
const DROPPED_TABS_KEPT = 1_000;

export interface NetworkLog {
  /** Registers the chrome.webRequest (and tab) listeners; call once, at the worker's top level. */
  listen(): void;
  list(tabId: number, filter: NetworkFilter): NetworkList;
  get(tabId: number, requestId: string): NetworkEntryDetail | undefined;
  /** Enables the debugger's Network domain in every session hub opens (for bodies). */
  watch(sessions: BodySessions): void;
  /** The response body of `entry`, through the debugger, bounded; throws BODY_UNAVAILABLE. */
  body(sessions: BodySessions, tabId: number, entry: NetworkEntryDetail): Promise<NetworkBody>;
  /** The recorder's event handlers (listen() wires them; tests call them). */
  readonly events: NetworkEvents;
}

/** What browser_network_requests lists of a tab. */
interface NetworkList {
  requests: NetworkEntry[];
  total: number;
  truncated: boolean;
  note?: string;
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

/** The logs of at most MAX_TABS tabs, and the tabs whose log went for that bound. */
interface TabLogs {
  tabs: Map<number, TabLog>;
  /** Tabs whose log went for the MAX_TABS bound, oldest first. */
  evicted: Set<number>;
  /** The tab's log, made (its least active rival's going) when it has none; marks it active. */
  tabLog(tabId: number): TabLog;
  /** The in-flight hop of a request, when its tab is recorded. */
  open(details: { tabId: number; requestId: string }): Entry | undefined;
  /** A request ended (completed or failed): it is no longer in flight. */
  ended(details: { tabId: number; requestId: string }): void;
}

function createTabLogs(now: () => number): TabLogs {
  const tabs = new Map<number, TabLog>();
  const evicted = new Set<number>();

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

  return {
    tabs,
    evicted,
    tabLog(tabId) {
      let log = tabs.get(tabId);
      if (!log) {
        if (tabs.size >= MAX_TABS) forgetLeastActive();
        log = { entries: [], open: new Map(), hops: new Map(), dropped: 0, touched: now() };
        if (evicted.delete(tabId)) log.evicted = true;
        tabs.set(tabId, log);
      }
      log.touched = now();
      return log;
    },
    open: (details) =>
      details.tabId < 0 ? undefined : tabs.get(details.tabId)?.open.get(details.requestId),
    ended(details) {
      const log = details.tabId < 0 ? undefined : tabs.get(details.tabId);
      log?.open.delete(details.requestId);
      log?.hops.delete(details.requestId);
    },
  };
}

/** Adds an entry to a tab's ring: the newest MAX_REQUESTS_PER_TAB, headers for HEADERS_KEPT. */
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

/** Records a request's next hop (onBeforeRequest) in its tab's log. */
function recordRequest(log: TabLog, details: RequestEvent) {
  const hop = log.hops.get(details.requestId) ?? 0;
  // A navigation starts at its first hop: the redirects it follows belong to the new page.
  if (details.type === "main_frame" && hop === 0) log.mainStart = details.timeStamp;
  log.hops.set(details.requestId, hop + 1);
  const entry = newEntry(details, hop);
  log.open.set(details.requestId, entry);
  push(log, entry);
  // Requests whose end Chromium never reported (a worker restart) are let go of.
  for (const map of [log.open, log.hops]) {
    if (map.size > MAX_REQUESTS_PER_TAB) map.delete(map.keys().next().value!);
  }
}

/** The tab's top frame committed a new document: the old page's requests go. */
function restart(log: TabLog, timeStamp: number) {
  const since = log.mainStart ?? timeStamp;
  log.mainStart = undefined;
  log.entries = log.entries.filter((entry) => entry.start >= since);
  log.dropped = 0;
  log.evicted = false;
}

function createEvents(logs: TabLogs): NetworkEvents {
  return {
    beforeRequest(details) {
      if (details.tabId >= 0) recordRequest(logs.tabLog(details.tabId), details);
    },
    sendHeaders(details) {
      const entry = logs.open(details);
      if (entry) sentHeaders(entry, details);
    },
    beforeRedirect(details) {
      const entry = logs.open(details);
      if (!entry) return;
      responded(entry, details);
      entry.end = details.timeStamp;
      if (details.redirectUrl) entry.redirectUrl = keptUrl(details.redirectUrl);
      // The next hop's beforeRequest comes with the same requestId.
      logs.tabs.get(details.tabId)?.open.delete(details.requestId);
    },
    completed(details) {
      const entry = logs.open(details);
      if (entry) {
        responded(entry, details);
        entry.end = details.timeStamp;
      }
      logs.ended(details);
    },
    errorOccurred(details) {
      const entry = logs.open(details);
      if (entry) {
        entry.failed = true;
        entry.errorText = (details.error ?? "failed").slice(0, 200);
        entry.end = details.timeStamp;
      }
      logs.ended(details);
    },
    committed(tabId, timeStamp) {
      const log = logs.tabs.get(tabId);
      if (log) restart(log, timeStamp);
    },
    removed(tabId) {
      logs.tabs.delete(tabId);
      logs.evicted.delete(tabId);
    },
  };
}

/** Wires `events` to chrome.webRequest, webNavigation and tabs. */
function listen(events: NetworkEvents) {
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
}

/** A tab's newest requests that match `filter`, saying when its earlier log went (MAX_TABS). */
function list(logs: TabLogs, tabId: number, filter: NetworkFilter): NetworkList {
  const log = logs.tabs.get(tabId);
  const droppedNote = log?.evicted || (!log && logs.evicted.has(tabId))
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
  const matched = matching(log.entries, filter);
  const newest = matched.slice(Math.max(0, matched.length - filter.limit));
  return {
    requests: newest.map(summary),
    total: matched.length,
    truncated: newest.length < matched.length || log.dropped > 0 || log.evicted === true,
    ...droppedNote,
  };
}

/** Made once, at the worker's top level. `now` is for tests. */
export function createNetworkLog(now: () => number = Date.now): NetworkLog {
  const logs = createTabLogs(now);
  const bodies = createNetworkBodies(now);
  const events = createEvents(logs);
  return {
    events,
    watch: (sessions) => bodies.watch(sessions),
    body: (sessions, tabId, entry) => bodies.read(sessions, tabId, entry),
    listen: () => listen(events),
    list: (tabId, filter) => list(logs, tabId, filter),
    get(tabId, requestId) {
      const entry = logs.tabs.get(tabId)?.entries.find((e) => e.id === requestId);
      return entry && detail(entry);
    },
  };
}
