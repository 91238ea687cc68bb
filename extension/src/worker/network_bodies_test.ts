/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { HubError } from "../../../protocol/errors.ts";
import { MAX_BODY_CHARS } from "../../../protocol/browser_methods/network.ts";
import { createNetworkLog } from "./network_log.ts";
import { type BodySession, type BodySessions, bounded } from "./network_bodies.ts";
import { fetched, request, T0 } from "./_fake_network.ts";

/** The HubError `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<HubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HubError) return error;
    throw error;
  }
  throw new Error("it did not reject");
}

/** Sessions that record commands and answer getResponseBody from `bodies` (by CDP id). */
function fakeSessions(bodies: Record<string, { body: string; base64Encoded: boolean }>) {
  const hooks: ((s: BodySession, id: string | undefined) => Promise<void>)[] = [];
  const listeners: ((
    e: { tabId: number; sessionId?: string; method: string; params: Record<string, unknown> },
  ) => void)[] = [];
  const commands: string[] = [];
  let attached = false;
  const session: BodySession = {
    tabId: 7,
    // deno-lint-ignore require-await
    async send<T>(method: string, params?: Record<string, unknown>) {
      commands.push(method);
      if (method === "Network.getResponseBody") {
        const body = bodies[String(params?.requestId)];
        if (!body) throw new Error("No resource with given identifier found");
        return body as T;
      }
      return {} as T;
    },
  };
  const sessions: BodySessions = {
    async session() {
      if (!attached) {
        attached = true;
        for (const hook of hooks) await hook(session, undefined);
      }
      return session;
    },
    current: () => (attached ? session : undefined),
    onSession: (hook) => void hooks.push(hook),
    onEvent: (listener) => (listeners.push(listener), () => {}),
    onDetach: () => () => {},
  };
  const emit = (requestId: string, url: string, wallMs: number) =>
    listeners.forEach((l) =>
      l({
        tabId: 7,
        method: "Network.requestWillBeSent",
        params: { requestId, request: { url, method: "GET" }, wallTime: wallMs / 1000 },
      })
    );
  return { sessions, emit, commands };
}

Deno.test("body: read through the debugger when it saw the request; else BODY_UNAVAILABLE says why", async () => {
  let clock = T0;
  const log = createNetworkLog(() => clock);
  const fake = fakeSessions({ "cdp.1": { body: '{"ok":true}', base64Encoded: false } });
  log.watch(fake.sessions);

  // Made before hub attached: unavailable, and the debugger is attached now.
  fetched(log, "1", "https://a.test/api/early", 200, T0);
  clock = T0 + 1_000;
  const early = log.get(7, "1")!;
  const error = await rejection(log.body(fake.sessions, 7, early));
  assertEquals(error.payload.code, "BODY_UNAVAILABLE");
  assertMatch(error.message, /not attached to tab 7 when request 1 ran.*repeat/s);
  assert(fake.commands.includes("Network.enable"));

  // Made while attached: matched by URL, method and time.
  fetched(log, "2", "https://a.test/api/items", 200, T0 + 2_000);
  fake.emit("cdp.1", "https://a.test/api/items", T0 + 2_001);
  const body = await log.body(fake.sessions, 7, log.get(7, "2")!);
  assertEquals(body, { bytes: 11, encoding: "text", data: '{"ok":true}', truncated: false });

  // Failed requests have no body.
  log.events.beforeRequest(request("3", "https://a.test/x", { timeStamp: T0 + 3_000 }));
  log.events.errorOccurred(request("3", "https://a.test/x", { error: "net::ERR_FAILED" }));
  const failed = await rejection(log.body(fake.sessions, 7, log.get(7, "3")!));
  assertMatch(failed.message, /failed \(net::ERR_FAILED\)/);

  // Chromium lost it.
  fetched(log, "4", "https://a.test/api/gone", 200, T0 + 4_000);
  fake.emit("cdp.9", "https://a.test/api/gone", T0 + 4_000);
  const gone = await rejection(log.body(fake.sessions, 7, log.get(7, "4")!));
  assertMatch(gone.message, /no longer holds the body/);
});

Deno.test("body bounds: text cut at MAX_BODY_CHARS, binary as base64, base64 text decoded", () => {
  const long = bounded("z".repeat(MAX_BODY_CHARS + 5), false, "text/plain");
  assertEquals([long.data.length, long.truncated, long.bytes], [
    MAX_BODY_CHARS,
    true,
    MAX_BODY_CHARS + 5,
  ]);
  const png = bounded(btoa("\x89PNG"), true, "image/png");
  assertEquals([png.encoding, png.data, png.bytes], ["base64", btoa("\x89PNG"), 4]);
  const utf8 = bounded(
    btoa(String.fromCharCode(...new TextEncoder().encode("héllo"))),
    true,
    "application/json",
  );
  assertEquals([utf8.encoding, utf8.data, utf8.bytes], ["text", "héllo", 6]);
});

Deno.test("body: a request whose URL had a secret is still matched with the debugger's", async () => {
  let clock = T0;
  const log = createNetworkLog(() => clock);
  const fake = fakeSessions({ "cdp.5": { body: "ok", base64Encoded: false } });
  log.watch(fake.sessions);
  await fake.sessions.session(7);
  fetched(log, "5", "https://a.test/api?token=t0k", 200, T0 + 2_000);
  fake.emit("cdp.5", "https://a.test/api?token=t0k", T0 + 2_001);
  clock = T0 + 3_000;
  const body = await log.body(fake.sessions, 7, log.get(7, "5")!);
  assertEquals(body.data, "ok");
});
