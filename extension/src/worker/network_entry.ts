/**
 * One recorded request of network_log.ts, as kept and as shown: the entry made from a
 * chrome.webRequest event, its headers kept within bounds (secrets redacted: network_redact.ts),
 * the filter of browser_network_requests, and the summary and detail browser_network_requests and
 * browser_network_request return.
 */
import {
  type NetworkEntry,
  type NetworkEntryDetail,
  type NetworkHeader,
  RESOURCE_TYPES,
  type ResourceType,
} from "../../../protocol/browser_methods/network.ts";
import { isSecretHeader, keptHeaderValue, keptUrl } from "./network_redact.ts";

/** Only the newest this many requests of a tab keep their headers. */
export const HEADERS_KEPT = 100;
/** The most header characters (names and values) kept per request and direction. */
export const HEADER_CHARS = 4_000;
/** The most headers kept per request and direction. */
const MAX_HEADERS = 60;
/** The most characters of one header value kept. */
const HEADER_VALUE_CHARS = 1_000;

/** The filter of browser_network_requests. */
export interface NetworkFilter {
  urlIncludes?: string;
  resourceTypes?: readonly string[];
  statuses?: readonly number[];
  failedOnly?: boolean;
  limit: number;
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

/** One hop of a request, as recorded. */
export interface Entry {
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

/** The status text of a status line (`HTTP/1.1 404 Not Found` → `Not Found`). */
function statusText(line: string | undefined): string | undefined {
  const text = line?.replace(/^\S+\s+\d{3}\s*/, "").slice(0, 200);
  return text || undefined;
}

/** The entry of a request's `hop`th hop (0: the request itself), as onBeforeRequest gives it. */
export function newEntry(details: RequestEvent, hop: number): Entry {
  return {
    id: hop === 0 ? details.requestId : `${details.requestId}-${hop}`,
    url: keptUrl(details.url),
    method: details.method.slice(0, 20),
    type: (KNOWN_TYPES.has(details.type) ? details.type : "other") as ResourceType,
    frameId: details.frameId,
    start: details.timeStamp,
    failed: false,
  };
}

/** Records a response (a redirect's or the final one) on its entry. */
export function responded(entry: Entry, details: ResponseEvent): void {
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

/** Records the request headers on an entry that still keeps headers. */
export function sentHeaders(entry: Entry, details: ResponseEvent): void {
  if (entry.headersDropped) return;
  const kept = keepHeaders(details.requestHeaders);
  entry.requestHeaders = kept.headers;
  entry.headersCut ||= kept.cut;
}

/** The entries that match `filter` (its limit aside), oldest first. */
export function matching(entries: readonly Entry[], filter: NetworkFilter): Entry[] {
  const needle = filter.urlIncludes?.toLowerCase();
  const types = filter.resourceTypes ? new Set(filter.resourceTypes) : undefined;
  const statuses = filter.statuses ? new Set(filter.statuses) : undefined;
  return entries.filter((entry) =>
    (needle === undefined || entry.url.toLowerCase().includes(needle)) &&
    (!types || types.has(entry.type)) &&
    (!statuses || (entry.status !== undefined && statuses.has(entry.status))) &&
    (!filter.failedOnly || entry.failed || (entry.status ?? 0) >= 400)
  );
}

export function summary(entry: Entry): NetworkEntry {
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

export function detail(entry: Entry): NetworkEntryDetail {
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
