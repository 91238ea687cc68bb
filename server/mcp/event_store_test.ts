import { assert, assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import {
  EVENT_STORE_LIMITS,
  type EventStoreLimits,
  EventStores,
  type SessionEventStore,
  STANDALONE_STREAM,
} from "./event_store.ts";
import type { JSONRPCMessage } from "./sdk.ts";

const LIMITS: EventStoreLimits = { maxEvents: 10, maxBytes: 1_000, maxTotalBytes: 1_500 };

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { level: "info", data: `n${n}` },
});
const result = (id: number, text = "done"): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text }] },
});

async function replay(store: SessionEventStore, lastEventId: string) {
  const sent: { id: string; message: JSONRPCMessage }[] = [];
  const stream = await store.replayEventsAfter(lastEventId, {
    send: (id, message) => Promise.resolve(void sent.push({ id, message })),
  });
  return { stream, sent };
}

Deno.test("replay sends the later events of the same stream, without priming events", async () => {
  const store = new EventStores(LIMITS).open();
  const priming = await store.storeEvent("s1", {} as JSONRPCMessage);
  await store.storeEvent("s2", {} as JSONRPCMessage);
  await store.storeEvent(STANDALONE_STREAM, note(1));
  const progress = await store.storeEvent("s1", note(2));
  await store.storeEvent("s2", result(2));
  const done = await store.storeEvent("s1", result(1));

  const { stream, sent } = await replay(store, priming);
  assertEquals(stream, "s1");
  assertEquals(sent.map((e) => e.id), [progress, done]);
  assertEquals(sent[1].message, result(1));
  assertEquals((await replay(store, done)).sent, []);
  assert(done.endsWith(".s1"), `the event id names its stream: ${done}`);
});

Deno.test("an event id resolves only in the session that issued it", async () => {
  const stores = new EventStores(LIMITS);
  const a = stores.open();
  const b = stores.open();
  const id = await a.storeEvent(STANDALONE_STREAM, note(1));
  await b.storeEvent(STANDALONE_STREAM, note(1));
  assert(a.resumePoint(id));
  assertEquals(b.resumePoint(id), undefined);
  await assertRejects(() => replay(b, id), Error, "unknown to this session");
  const [salt] = id.split(".");
  for (const bad of ["", "x", `${salt}.1`, `${salt}.0.s`, `${salt}.99.s`, `${salt}.1.nope`]) {
    assertEquals(a.resumePoint(bad), undefined, bad);
  }
  assertEquals(a.resumePoint(`${salt}.1.${"s".repeat(300)}`), undefined);
});

Deno.test("a session keeps at most maxEvents, GET-stream notifications dropped first", async () => {
  const store = new EventStores(LIMITS).open();
  const call = await store.storeEvent("call", {} as JSONRPCMessage);
  for (let i = 0; i < 25; i++) await store.storeEvent(STANDALONE_STREAM, note(i));
  assertEquals(store.size, 10);
  const answer = await store.storeEvent("call", result(1));
  assertEquals(store.size, 10);
  assertEquals((await replay(store, call)).sent.map((e) => e.id), [answer]);

  for (let i = 0; i < 12; i++) await store.storeEvent("other", result(100 + i));
  assertEquals(store.size, 10, "over the count, request-stream events go too, oldest first");
  assertEquals((await replay(store, call)).sent, []);

  for (let i = 0; i < 10; i++) await store.storeEvent(`s${i}`, {} as JSONRPCMessage);
  assertEquals(store.resumePoint(call), undefined, "it remembers at most maxEvents streams");
});

Deno.test("a session keeps at most maxBytes; an oversized result is kept as an error saying so", async () => {
  const store = new EventStores(LIMITS).open();
  const priming = await store.storeEvent("big", {} as JSONRPCMessage);
  for (let i = 0; i < 5; i++) await store.storeEvent(`s${i}`, result(i, "x".repeat(300)));
  assert(store.bytes <= LIMITS.maxBytes, `${store.bytes} bytes`);
  assert(store.size < 5);

  await store.storeEvent("big", result(9, "y".repeat(5_000)));
  const { sent } = await replay(store, priming);
  assertEquals(sent.length, 1);
  const error = (sent[0].message as { error: { message: string } }).error;
  assert(error.message.includes("too large to keep"), error.message);
  assertEquals(store.resumePoint(priming)?.finished, true);

  const before = store.size;
  await store.storeEvent(STANDALONE_STREAM, note(1_000));
  await store.storeEvent(STANDALONE_STREAM, {
    jsonrpc: "2.0",
    method: "notifications/message",
    params: { level: "info", data: "z".repeat(5_000) },
  });
  assertEquals(store.size, before + 1, "an oversized notification is sent but not kept");
});

Deno.test("all sessions together keep at most maxTotalBytes; the largest session gives way", async () => {
  const stores = new EventStores(LIMITS);
  const a = stores.open();
  const b = stores.open();
  for (let i = 0; i < 9; i++) await a.storeEvent(`a${i}`, result(i, "a".repeat(80)));
  const aBytes = a.bytes;
  assert(aBytes > 700, `${aBytes}`);
  for (let i = 0; i < 9; i++) await b.storeEvent(`b${i}`, result(i, "b".repeat(80)));
  assert(stores.bytes <= LIMITS.maxTotalBytes, `${stores.bytes} bytes in all`);
  assertEquals(stores.bytes, a.bytes + b.bytes);
  assert(a.bytes < aBytes, "the larger session gave way");

  a.close();
  assertEquals(stores.bytes, b.bytes, "a closed session frees its share");
  await a.storeEvent("late", result(1));
  assertEquals(a.size, 0, "a closed store keeps nothing");
  b.close();
  assertEquals(stores.bytes, 0);
});

Deno.test("a request stream is finished once every response of its request (or batch) is stored", async () => {
  const store = new EventStores(LIMITS).open();
  const single = await store.storeEvent("one", {} as JSONRPCMessage);
  assertEquals(store.resumePoint(single)?.finished, false);
  await store.storeEvent("one", note(1));
  assertEquals(store.resumePoint(single)?.finished, false);
  await store.storeEvent("one", result(1));
  assertEquals(store.resumePoint(single)?.finished, true);

  store.noteBatch([7, "8"]);
  const batch = await store.storeEvent("two", {} as JSONRPCMessage);
  await store.storeEvent("two", result(7));
  assertEquals(store.resumePoint(batch)?.finished, false);
  await store.storeEvent("two", { jsonrpc: "2.0", id: "8", error: { code: 1, message: "no" } });
  assertEquals(store.resumePoint(batch)?.finished, true);

  const get = await store.storeEvent(STANDALONE_STREAM, note(2));
  assertEquals(store.resumePoint(get)?.finished, false, "the GET stream never finishes");
});

Deno.test("a stream whose events were all evicted can still be resumed (nothing to replay)", async () => {
  const store = new EventStores(LIMITS).open();
  const priming = await store.storeEvent("slow", {} as JSONRPCMessage);
  for (let i = 0; i < 10; i++) await store.storeEvent("other", note(i));
  assertEquals(store.size, 10);
  const point = store.resumePoint(priming);
  assertEquals(point?.streamId, "slow");
  assertEquals(store.eventsAfter(point!), []);
});

Deno.test("past maxEvents streams the oldest stream is forgotten with exactly its events and bytes", async () => {
  const stores = new EventStores({ maxEvents: 3, maxBytes: 10_000, maxTotalBytes: 20_000 });
  const store = stores.open();
  const first = await store.storeEvent("s0", {} as JSONRPCMessage);
  await store.storeEvent("s0", result(0));
  for (let s = 1; s <= 3; s++) await store.storeEvent(`s${s}`, result(s));
  assertEquals(store.resumePoint(first), undefined, "s0 is forgotten");
  assertEquals(store.size, 3, "s0 took its 2 events with it; the others stay");
  const kept = [1, 2, 3].map((s) => JSON.stringify(result(s)).length).reduce((a, b) => a + b);
  assertEquals([store.bytes, stores.bytes], [kept, kept]);
});

Deno.test("the default bounds: 1,000 events and 16 MiB per session, 64 MiB in all", () => {
  assertEquals(EVENT_STORE_LIMITS, {
    maxEvents: 1_000,
    maxBytes: 16 * 1024 * 1024,
    maxTotalBytes: 64 * 1024 * 1024,
  });
});
