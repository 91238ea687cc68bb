/// <reference lib="deno.ns" />
import { failureOf } from "./_test_fixtures.ts";
import { withTabs } from "./_test_fixtures.ts";
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import type { AdapterCall } from "../../../protocol/adapter.ts";
import type { ErrorPayload } from "../../../protocol/errors.ts";
import { checkedAnswer, createPageLinks } from "./page_links.ts";
import {
  CALL_MESSAGE,
  CALL_RESULT_MESSAGE,
  type CallMessage,
  HELLO_MESSAGE,
  type MaybeMissing,
  PAGE_EVENT_MESSAGE,
  PORT_NAME,
} from "../shared/page_messages.ts";

type Listener = (...args: unknown[]) => void;

interface PortOptions {
  name?: string;
  tabId?: number;
  url?: string;
  frameId?: number;
  documentLifecycle?: string;
  /** No `sender.tab` at all (a port from an extension page). */
  noTab?: boolean;
}

/** A stand-in for `chrome.runtime.Port`: records what the worker posts, lets the test play the page. */
class FakePort {
  readonly name: string;
  readonly sender: chrome.runtime.MessageSender;
  readonly posted: unknown[] = [];
  /** When set, postMessage throws as Chrome does on a port that already closed. */
  dead = false;
  disconnected = false;
  readonly messageListeners: Listener[] = [];
  readonly disconnectListeners: Listener[] = [];
  readonly onMessage = { addListener: (f: Listener) => void this.messageListeners.push(f) };
  readonly onDisconnect = { addListener: (f: Listener) => void this.disconnectListeners.push(f) };

  constructor(options: PortOptions = {}) {
    this.name = options.name ?? PORT_NAME;
    const tabId = options.tabId ?? 7;
    const sender: Record<string, unknown> = { frameId: options.frameId ?? 0 };
    if (!options.noTab) sender.tab = { id: tabId, url: options.url ?? "http://127.0.0.1:8000/" };
    if (options.documentLifecycle !== undefined) {
      sender.documentLifecycle = options.documentLifecycle;
    }
    this.sender = sender as chrome.runtime.MessageSender;
  }

  postMessage(message: unknown) {
    if (this.dead) throw new Error("Attempting to use a disconnected port object");
    this.posted.push(message);
  }

  disconnect() {
    this.disconnected = true;
  }

  get port(): chrome.runtime.Port {
    return this as unknown as chrome.runtime.Port;
  }

  /** The page posts `message` on the port. */
  receive(message: unknown) {
    for (const f of this.messageListeners) f(message, this);
  }

  /** The page's end closes (navigation, tab closed, bfcache). */
  close() {
    for (const f of this.disconnectListeners) f(this);
  }

  /** The calls posted so far. */
  calls(): CallMessage[] {
    return this.posted.filter((m) =>
      (m as { type?: unknown }).type === CALL_MESSAGE
    ) as CallMessage[];
  }

  /** The page answers call `id`. */
  answer(id: number, result: unknown) {
    this.receive({ type: CALL_RESULT_MESSAGE, id, result });
  }
}

/** Counts the timers set and not yet fired or cleared while `body` runs; restores the globals. */
async function withTimerCount(body: (live: () => number) => Promise<void>) {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Set<unknown>();
  globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const id = realSet(() => {
      live.delete(id);
      fn(...args);
    }, ms);
    live.add(id);
    return id;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((id?: Parameters<typeof clearTimeout>[0]) => {
    live.delete(id);
    realClear(id);
  }) as typeof clearTimeout;
  try {
    await body(() => live.size);
  } finally {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  }
}

/** Whether `promise` has settled, after letting queued microtasks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

function setup() {
  const events: [unknown, chrome.runtime.MessageSender][] = [];
  const links = createPageLinks((message, sender) => void events.push([message, sender]));
  return { links, events };
}

const request = (tool: string): AdapterCall => ({
  tool,
  input: { q: tool },
  dispatchId: `d-${tool}`,
  settings: { base: "x" },
});

const pageError: ErrorPayload = {
  code: "NOT_LOGGED_IN",
  message: "Log in first",
  category: "auth",
  retryable: false,
};

// --- accept ---

Deno.test("accept() adopts a port from a tab's top frame with the hub's port name", () => {
  const { links } = setup();
  const port = new FakePort({ tabId: 3 });
  assertEquals(links.has(3), false);
  links.accept(port.port);
  assertEquals(links.has(3), true);
  assertEquals(links.has(4), false);
  assertEquals(port.disconnected, false);
  assertEquals(port.messageListeners.length, 1);
  assertEquals(port.disconnectListeners.length, 1);
});

Deno.test("accept() ignores ports with another name, without a tab id, or from a subframe", async () => {
  const { links } = setup();
  const others = [
    new FakePort({ name: "something-else", tabId: 3 }),
    new FakePort({ noTab: true }),
    new FakePort({ tabId: 3, frameId: 1 }),
    new FakePort({ tabId: 3, frameId: 42 }),
  ];
  for (const port of others) links.accept(port.port);
  assertEquals(links.has(3), false);
  assertEquals(links.has(7), false);
  for (const port of others) {
    assertEquals(port.disconnected, false, "a port of someone else is left alone");
    assertEquals(port.messageListeners.length, 0);
    assertEquals(port.disconnectListeners.length, 0);
  }
  assertEquals(await links.call(3, "app", "h", request("echo")), { missing: true });
  for (const port of others) assertEquals(port.posted, []);
});

Deno.test("accept() disconnects a port from a document that is not active and does not adopt it", () => {
  const { links } = setup();
  for (const documentLifecycle of ["cached", "pending_deletion", "prerender"]) {
    const port = new FakePort({ tabId: 3, documentLifecycle });
    links.accept(port.port);
    assertEquals(port.disconnected, true, documentLifecycle);
    assertEquals(links.has(3), false, documentLifecycle);
    assertEquals(port.messageListeners.length, 0, documentLifecycle);
  }
  const active = new FakePort({ tabId: 3, documentLifecycle: "active" });
  links.accept(active.port);
  assertEquals(active.disconnected, false);
  assertEquals(links.has(3), true);
});

Deno.test("a document on its way out does not replace the tab's current link", async () => {
  const { links } = setup();
  const current = new FakePort({ tabId: 3, documentLifecycle: "active" });
  links.accept(current.port);
  const leaving = new FakePort({ tabId: 3, documentLifecycle: "cached" });
  links.accept(leaving.port);
  assertEquals(leaving.disconnected, true);
  const call = links.call(3, "app", "h", request("echo"));
  assertEquals(leaving.posted, []);
  assertEquals(current.calls().length, 1);
  current.answer(current.calls()[0].id, { ok: true, value: 1 });
  assertEquals(await call, { ok: true, value: 1 });
});

// --- call ---

Deno.test("call() without a link resolves missing and posts nothing", async () => {
  const { links } = setup();
  const other = new FakePort({ tabId: 8 });
  links.accept(other.port);
  assertEquals(await links.call(3, "app", "h", request("echo")), { missing: true });
  assertEquals(other.posted, []);
});

Deno.test("call() posts a hub-call message and resolves with the page's answer", async () => {
  const { links } = setup();
  const port = new FakePort({ tabId: 3 });
  links.accept(port.port);
  const call = links.call(3, "app", "hash-1", request("echo"));
  assertEquals(port.posted.length, 1);
  const sent = port.posted[0] as CallMessage;
  assertEquals(typeof sent.id, "number");
  assertEquals(sent, {
    type: CALL_MESSAGE,
    id: sent.id,
    plugin: "app",
    hash: "hash-1",
    request: request("echo"),
  });
  assertEquals(await settled(call), false, "waits for the answer");
  port.answer(sent.id, { ok: true, value: { echoed: "hi" } });
  assertEquals(await call, { ok: true, value: { echoed: "hi" } });
});

Deno.test("answers match calls by id, in any order; an unknown id is ignored", async () => {
  const { links, events } = setup();
  const port = new FakePort({ tabId: 3 });
  links.accept(port.port);
  const first = links.call(3, "app", "h", request("one"));
  const second = links.call(3, "app", "h", request("two"));
  const third = links.call(3, "other", "h2", request("three"));
  const [a, b, c] = port.calls();
  assertEquals(new Set([a.id, b.id, c.id]).size, 3, "each call has its own id");
  assertEquals([a.request.tool, b.request.tool, c.request.tool], ["one", "two", "three"]);
  assertEquals(c.plugin, "other");

  port.answer(c.id, { ok: false, error: pageError });
  port.answer(Math.max(a.id, b.id, c.id) + 100, { ok: true, value: "stray" });
  port.answer(a.id, { ok: true, value: "A" });
  assertEquals(await third, { ok: false, error: pageError });
  assertEquals(await first, { ok: true, value: "A" });
  assertEquals(await settled(second), false);
  port.answer(b.id, { missing: true });
  assertEquals(await second, { missing: true });
  // A second answer for a finished call changes nothing and is not taken for an event.
  port.answer(a.id, { ok: true, value: "again" });
  assertEquals(events, []);
});

Deno.test("an answer of the wrong shape resolves the call with an ADAPTER_ERROR", async () => {
  const { links } = setup();
  const port = new FakePort({ tabId: 3 });
  links.accept(port.port);
  const call = links.call(3, "app", "h", request("echo"));
  port.answer(port.calls()[0].id, "not a result");
  const result = await call;
  assert(!("missing" in result) && result.ok === false);
  assertEquals(result.error.code, "ADAPTER_ERROR");
  assertMatch(result.error.message, /not a tool result: "not a result"/);
});

Deno.test("a port whose postMessage throws resolves missing and drops the link", async () => {
  const { links } = setup();
  const port = new FakePort({ tabId: 3 });
  links.accept(port.port);
  port.dead = true;
  assertEquals(await links.call(3, "app", "h", request("echo")), { missing: true });
  assertEquals(links.has(3), false);
  assertEquals(await links.call(3, "app", "h", request("echo")), { missing: true });
  assertEquals(port.posted, []);
  // A new port for the tab works again.
  const fresh = new FakePort({ tabId: 3 });
  links.accept(fresh.port);
  const call = links.call(3, "app", "h", request("echo"));
  fresh.answer(fresh.calls()[0].id, { ok: true, value: "back" });
  assertEquals(await call, { ok: true, value: "back" });
});

Deno.test("a dead port's later disconnect event fails nothing and does not throw", async () => {
  await withTabs(new Set([3]), async () => {
    const { links } = setup();
    const port = new FakePort({ tabId: 3 });
    links.accept(port.port);
    port.dead = true;
    assertEquals(await links.call(3, "app", "h", request("echo")), { missing: true });
    const fresh = new FakePort({ tabId: 3 });
    links.accept(fresh.port);
    const call = links.call(3, "app", "h", request("echo"));
    port.close();
    await Promise.resolve();
    assertEquals(links.has(3), true, "the old port's disconnect leaves the new link");
    fresh.answer(fresh.calls()[0].id, { ok: true, value: 5 });
    assertEquals(await call, { ok: true, value: 5 });
  });
});

// --- checkedAnswer ---

Deno.test("checkedAnswer() passes answers the adapter contract allows", () => {
  assertEquals(checkedAnswer({ missing: true }), { missing: true });
  assertEquals(checkedAnswer({ missing: true, extra: 1 }), { missing: true });
  assertEquals(checkedAnswer({ ok: true, value: 42 }), { ok: true, value: 42 });
  assertEquals(checkedAnswer({ ok: true, value: null }), { ok: true, value: null });
  assertEquals(checkedAnswer({ ok: true, value: { a: [1, "b"] }, junk: 1 }), {
    ok: true,
    value: { a: [1, "b"] },
  });
  assertEquals(checkedAnswer({ ok: false, error: pageError }), { ok: false, error: pageError });
  const detailed = { ...pageError, details: { retryAfter: 3 } };
  assertEquals(checkedAnswer({ ok: false, error: detailed }), { ok: false, error: detailed });
});

Deno.test("checkedAnswer() turns anything else into an ADAPTER_ERROR that says what came", () => {
  const bad: [unknown, RegExp][] = [
    [null, /: null$/],
    [undefined, /: undefined$/],
    ["x", /: "x"$/],
    [42, /: 42$/],
    [[], /: \[\]$/],
    [{}, /: \{\}$/],
    [{ missing: "yes" }, /"missing":"yes"/],
    [{ ok: true }, /\{"ok":true\}/],
    [{ ok: "true", value: 1 }, /"ok":"true"/],
    [{ ok: false, error: "x" }, /"error":"x"/],
    [{ ok: false }, /\{"ok":false\}/],
    [{ ok: false, error: { ...pageError, category: "bogus" } }, /"category":"bogus"/],
    [{ ok: false, error: { ...pageError, retryable: "no" } }, /"retryable":"no"/],
    [
      { ok: false, error: { message: "no code", category: "internal", retryable: false } },
      /no code/,
    ],
  ];
  for (const [input, says] of bad) {
    const result = checkedAnswer(input);
    assert(!("missing" in result) && result.ok === false, `${JSON.stringify(input)} passed`);
    assertEquals(result.error.code, "ADAPTER_ERROR");
    assertEquals(result.error.category, "internal");
    assertEquals(result.error.retryable, false);
    assertMatch(
      result.error.message,
      /^The page answered with something that is not a tool result/,
    );
    assertMatch(result.error.message, says);
  }
});

Deno.test("checkedAnswer() quotes at most 200 characters of a long answer", () => {
  const result = checkedAnswer({ ok: "maybe", value: "v".repeat(5000) });
  assert(!("missing" in result) && result.ok === false);
  assertEquals(result.error.code, "ADAPTER_ERROR");
  const prefix = "The page answered with something that is not a tool result: ";
  assert(result.error.message.startsWith(prefix));
  assertEquals(result.error.message.length, prefix.length + 200);
});

// --- disconnect ---

Deno.test("a disconnect fails pending calls with TAB_NAVIGATED when the tab still exists", async () => {
  await withTabs(new Set([3]), async () => {
    const { links } = setup();
    const port = new FakePort({ tabId: 3 });
    links.accept(port.port);
    const first = links.call(3, "app", "h", request("one"));
    const second = links.call(3, "app", "h", request("two"));
    port.close();
    assertEquals(links.has(3), false, "the link is gone at once");
    for (const failed of [await failureOf(first), await failureOf(second)]) {
      assertEquals(failed.payload.code, "TAB_NAVIGATED");
      assertEquals(failed.payload.category, "unavailable");
      assertEquals(failed.payload.retryable, true);
      assertMatch(failed.payload.message, /Tab 3/);
    }
    assertEquals(await links.call(3, "app", "h", request("echo")), { missing: true });
    assertEquals(port.calls().length, 2, "no call goes to the closed port");
  });
});

Deno.test("a disconnect fails pending calls with TAB_CLOSED when the tab is gone", async () => {
  await withTabs(new Set(), async () => {
    const { links } = setup();
    const port = new FakePort({ tabId: 3 });
    links.accept(port.port);
    const call = links.call(3, "app", "h", request("one"));
    port.close();
    assertEquals(links.has(3), false);
    const failed = await failureOf(call);
    assertEquals(failed.payload.code, "TAB_CLOSED");
    assertEquals(failed.payload.category, "unavailable");
    assertMatch(failed.payload.message, /Tab 3 was closed/);
  });
});

Deno.test("an answer already received is not failed by a later disconnect", async () => {
  await withTabs(new Set([3]), async () => {
    const { links } = setup();
    const port = new FakePort({ tabId: 3 });
    links.accept(port.port);
    const answered = links.call(3, "app", "h", request("one"));
    const waiting = links.call(3, "app", "h", request("two"));
    port.answer(port.calls()[0].id, { ok: true, value: "done" });
    port.close();
    assertEquals(await answered, { ok: true, value: "done" });
    assertEquals((await failureOf(waiting)).payload.code, "TAB_NAVIGATED");
  });
});

Deno.test("a disconnect with no call waiting does not ask chrome.tabs and removes the link", async () => {
  let asked = 0;
  const had = Object.hasOwn(globalThis, "chrome");
  const previous = Reflect.get(globalThis, "chrome");
  Reflect.set(globalThis, "chrome", {
    tabs: { get: () => (asked++, Promise.resolve({})) },
  });
  try {
    const { links } = setup();
    const port = new FakePort({ tabId: 3 });
    links.accept(port.port);
    port.close();
    await Promise.resolve();
    assertEquals(links.has(3), false);
    assertEquals(asked, 0);
    // Nor when every call sent was already answered.
    const answered = new FakePort({ tabId: 3 });
    links.accept(answered.port);
    const call = links.call(3, "app", "h", request("echo"));
    answered.answer(answered.calls()[0].id, { ok: true, value: 1 });
    assertEquals(await call, { ok: true, value: 1 });
    answered.close();
    await Promise.resolve();
    assertEquals(links.has(3), false);
    assertEquals(asked, 0);
  } finally {
    if (had) Reflect.set(globalThis, "chrome", previous);
    else Reflect.deleteProperty(globalThis, "chrome");
  }
});

Deno.test("disconnects are per tab: another tab's link and calls are untouched", async () => {
  await withTabs(new Set([3, 4]), async () => {
    const { links } = setup();
    const three = new FakePort({ tabId: 3 });
    const four = new FakePort({ tabId: 4 });
    links.accept(three.port);
    links.accept(four.port);
    const onThree = links.call(3, "app", "h", request("a"));
    const onFour = links.call(4, "app", "h", request("b"));
    three.close();
    assertEquals((await failureOf(onThree)).payload.code, "TAB_NAVIGATED");
    assertEquals(links.has(4), true);
    four.answer(four.calls()[0].id, { ok: true, value: "four" });
    assertEquals(await onFour, { ok: true, value: "four" });
  });
});

// --- replacement and hello ---

Deno.test("a newer port replaces the link; the old port's disconnect leaves the new one", async () => {
  await withTabs(new Set([3]), async () => {
    const { links } = setup();
    const old = new FakePort({ tabId: 3 });
    links.accept(old.port);
    const onOld = links.call(3, "app", "h", request("old"));
    const newer = new FakePort({ tabId: 3 });
    links.accept(newer.port);
    const onNew = links.call(3, "app", "h", request("new"));
    assertEquals(old.calls().length, 1, "calls go to the newer port");
    assertEquals(newer.calls().length, 1);
    assertEquals(newer.calls()[0].request.tool, "new");

    old.close();
    assertEquals(links.has(3), true, "the old port's disconnect does not remove the new link");
    assertEquals((await failureOf(onOld)).payload.code, "TAB_NAVIGATED");
    assertEquals(await settled(onNew), false, "the new port's call still waits");
    newer.answer(newer.calls()[0].id, { ok: true, value: "new" });
    assertEquals(await onNew, { ok: true, value: "new" });

    const later = links.call(3, "app", "h", request("later"));
    assertEquals(newer.calls().length, 2);
    newer.answer(newer.calls()[1].id, { ok: true, value: "later" });
    assertEquals(await later, { ok: true, value: "later" });
  });
});

Deno.test("the old port can still answer the calls it was sent after being replaced", async () => {
  const { links } = setup();
  const old = new FakePort({ tabId: 3 });
  links.accept(old.port);
  const onOld = links.call(3, "app", "h", request("old"));
  links.accept(new FakePort({ tabId: 3 }).port);
  old.answer(old.calls()[0].id, { ok: true, value: "from old" });
  assertEquals(await onOld, { ok: true, value: "from old" });
});

Deno.test("a hello on an older port makes it the tab's link again", async () => {
  await withTabs(new Set([3]), async () => {
    const { links, events } = setup();
    const old = new FakePort({ tabId: 3 });
    const newer = new FakePort({ tabId: 3 });
    links.accept(old.port);
    links.accept(newer.port);
    old.receive({ type: HELLO_MESSAGE });
    assertEquals(events, [], "a hello is not a page event");
    const call = links.call(3, "app", "h", request("echo"));
    assertEquals(old.calls().length, 1, "calls go to the re-adopted port");
    assertEquals(newer.calls().length, 0);
    // The port it replaced closing now leaves it alone.
    newer.close();
    assertEquals(links.has(3), true);
    old.answer(old.calls()[0].id, { ok: true, value: "old again" });
    assertEquals(await call, { ok: true, value: "old again" });
    // And a hello on the current port changes nothing.
    old.receive({ type: HELLO_MESSAGE });
    assertEquals(links.has(3), true);
  });
});

Deno.test("a hello on a port whose successor closed restores the link and wakes waiters", async () => {
  await withTabs(new Set([3]), async () => {
    await withTimerCount(async (live) => {
      const { links } = setup();
      const old = new FakePort({ tabId: 3 });
      const newer = new FakePort({ tabId: 3 });
      links.accept(old.port);
      links.accept(newer.port);
      newer.close();
      assertEquals(links.has(3), false);
      const waiting = links.waitFor(3, 60_000);
      assertEquals(live(), 1);
      old.receive({ type: HELLO_MESSAGE });
      assertEquals(await settled(waiting), true, "the hello wakes the wait at once");
      assertEquals(await waiting, true);
      assertEquals(live(), 0, "the wait's timer is cleared");
      assertEquals(links.has(3), true);
    });
  });
});

// --- waitFor ---

Deno.test("waitFor() resolves true at once when the tab already has a link", async () => {
  await withTimerCount(async (live) => {
    const { links } = setup();
    links.accept(new FakePort({ tabId: 3 }).port);
    assertEquals(await links.waitFor(3, 60_000), true);
    assertEquals(live(), 0);
  });
});

Deno.test("waitFor() resolves true when a port connects meanwhile and leaves no timer", async () => {
  await withTimerCount(async (live) => {
    const { links } = setup();
    const a = links.waitFor(3, 60_000);
    const b = links.waitFor(3, 60_000);
    const other = links.waitFor(4, 60_000);
    assertEquals(live(), 3);
    assertEquals(await settled(a), false);
    links.accept(new FakePort({ tabId: 3 }).port);
    assertEquals(await settled(a), true, "the port wakes the wait at once");
    assertEquals(await settled(b), true);
    assertEquals(await a, true);
    assertEquals(await b, true);
    assertEquals(await settled(other), false, "another tab's port does not wake it");
    assertEquals(live(), 1);
    // Ignored ports do not wake a waiter either.
    links.accept(new FakePort({ tabId: 4, frameId: 2 }).port);
    links.accept(new FakePort({ tabId: 4, documentLifecycle: "cached" }).port);
    assertEquals(await settled(other), false);
    links.accept(new FakePort({ tabId: 4 }).port);
    assertEquals(await settled(other), true);
    assertEquals(await other, true);
    assertEquals(live(), 0, "every wait's timer is cleared");
  });
});

Deno.test("waitFor() resolves false after the timeout and leaves nothing behind", async () => {
  await withTimerCount(async (live) => {
    const { links } = setup();
    const started = Date.now();
    assertEquals(await links.waitFor(3, 20), false);
    assert(Date.now() - started >= 15, "it waited for the timeout");
    assertEquals(live(), 0);
    // A port that connects after the wait gave up is simply adopted.
    links.accept(new FakePort({ tabId: 3 }).port);
    assertEquals(links.has(3), true);
  });
});

Deno.test("waitFor(): one wait timing out does not drop another wait for the same tab", async () => {
  await withTimerCount(async (live) => {
    const { links } = setup();
    const long = links.waitFor(3, 60_000);
    assertEquals(await links.waitFor(3, 10), false);
    assertEquals(live(), 1);
    assertEquals(await settled(long), false);
    links.accept(new FakePort({ tabId: 3 }).port);
    assertEquals(await settled(long), true, "the remaining wait is woken at once");
    assertEquals(await long, true);
    assertEquals(live(), 0);
  });
});

// --- page events ---

Deno.test("other messages on the port reach onEvent with the port's sender", () => {
  const { links, events } = setup();
  const port = new FakePort({ tabId: 3, url: "http://127.0.0.1:9000/inbox" });
  links.accept(port.port);
  const progress = {
    type: PAGE_EVENT_MESSAGE,
    event: { source: "hub-adapter", kind: "progress", plugin: "app", dispatchId: "d", progress: 1 },
  };
  port.receive(progress);
  port.receive({ type: "something-new", data: 1 });
  port.receive({ no: "type" });
  assertEquals(events.length, 3);
  assertEquals(events[0][0], progress);
  assertEquals(events[1][0], { type: "something-new", data: 1 });
  assertEquals(events[2][0], { no: "type" });
  for (const [, sender] of events) {
    assert(sender === port.sender, "the sender is the port's own");
    assertEquals(sender.tab?.id, 3);
    assertEquals(sender.tab?.url, "http://127.0.0.1:9000/inbox");
    assertEquals(sender.frameId, 0);
  }
});

Deno.test("page events from a replaced port still reach onEvent with that port's sender", () => {
  const { links, events } = setup();
  const old = new FakePort({ tabId: 3, url: "http://127.0.0.1:9000/old" });
  const newer = new FakePort({ tabId: 3, url: "http://127.0.0.1:9000/new" });
  links.accept(old.port);
  links.accept(newer.port);
  old.receive({ type: PAGE_EVENT_MESSAGE, event: { kind: "log" } });
  newer.receive({ type: PAGE_EVENT_MESSAGE, event: { kind: "reprobe" } });
  assertEquals(events.map(([m, s]) => [m, s.tab?.url]), [
    [{ type: PAGE_EVENT_MESSAGE, event: { kind: "log" } }, "http://127.0.0.1:9000/old"],
    [{ type: PAGE_EVENT_MESSAGE, event: { kind: "reprobe" } }, "http://127.0.0.1:9000/new"],
  ]);
});

Deno.test("an answer message is not passed to onEvent", async () => {
  const { links, events } = setup();
  const port = new FakePort({ tabId: 3 });
  links.accept(port.port);
  const call = links.call(3, "app", "h", request("echo"));
  port.answer(port.calls()[0].id, { ok: true, value: 1 } satisfies MaybeMissing);
  assertEquals(await call, { ok: true, value: 1 });
  assertEquals(events, []);
});
