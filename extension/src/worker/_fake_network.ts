/// <reference lib="deno.ns" />
/** Requests for the network recorder's unit tests (network_log_test.ts, network_bodies_test.ts). */
import type { createNetworkLog } from "./network_log.ts";

export const T0 = Date.UTC(2026, 10, 29, 3, 0, 0);
export function request(id: string, url: string, fields: Record<string, unknown> = {}) {
  return {
    requestId: id,
    tabId: 7,
    frameId: 0,
    url,
    method: "GET",
    type: "xmlhttprequest",
    timeStamp: T0,
    ...fields,
  };
}

/** A request that starts at `at` and completes with `status` 20 ms later. */
export function fetched(
  log: ReturnType<typeof createNetworkLog>,
  id: string,
  url: string,
  status = 200,
  at = T0,
) {
  log.events.beforeRequest(request(id, url, { timeStamp: at }));
  log.events.completed(request(id, url, {
    timeStamp: at + 20,
    statusCode: status,
    statusLine: `HTTP/1.1 ${status} Whatever`,
    fromCache: false,
    responseHeaders: [{ name: "Content-Length", value: "12" }],
  }));
}
