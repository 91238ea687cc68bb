// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { BUSY_CODE, createRelay } from "./relay.ts";

type Out = { id?: unknown; error?: { code: number; message: string }; result?: unknown };

function relayWithFakeHub(limits = { maxInFlight: 2, maxQueued: 1, maxHeldBytes: 1_000_000 }) {
  const sent: JSONRPCMessage[] = [];
  const written: Out[] = [];
  const logs: string[] = [];
  const relay = createRelay({
    send: (message) => (sent.push(message), Promise.resolve()),
    write: (message) => (written.push(message as Out), Promise.resolve()),
    log: (line) => logs.push(line),
    port: 9515,
    limits,
    maxLineBytes: 100,
  });
  const request = (id: number | string) => {
    const line = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });
    return relay.line({ line, bytes: line.length });
  };
  return { relay, sent, written, logs, request };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

Deno.test("past the in-flight and queue limits, requests get a -32000 error saying why; answers free places", async () => {
  const { relay, sent, written, request } = relayWithFakeHub();
  for (const id of [1, 2, 3, 4]) await request(id);
  assertEquals(sent.length, 2, "two in flight");
  assertEquals(written.length, 1, "the fourth was refused at once");
  assertEquals(written[0].id, 4);
  assertEquals(written[0].error?.code, BUSY_CODE);
  assertMatch(written[0].error!.message, /too many requests in flight \(limit 2, and 1 waiting\)/);
  relay.fromHub({ jsonrpc: "2.0", id: 1, result: {} } as JSONRPCMessage);
  await flush();
  assertEquals(sent.length, 3, "the queued one goes once an answer is written");
  assertEquals(relay.inFlight, 2);
});

Deno.test("a cancelled request frees its place (the hub will not answer it)", async () => {
  const { relay, sent, request } = relayWithFakeHub({
    maxInFlight: 1,
    maxQueued: 0,
    maxHeldBytes: 1_000_000,
  });
  await request("a");
  const cancel = JSON.stringify({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: "a" },
  });
  await relay.line({ line: cancel, bytes: cancel.length });
  await flush();
  assertEquals(relay.inFlight, 0, "neither the cancelled request nor the sent notification");
  await request("b");
  assertEquals(sent.map((m) => (m as { id?: string }).id).filter(Boolean), ["a", "b"]);
});

Deno.test("a line too long or not JSON-RPC is answered with an error, and logged", async () => {
  const { relay, written, logs, sent } = relayWithFakeHub();
  await relay.line({ tooLong: 5_000, id: "big" });
  await relay.line({ line: "not json", bytes: 8 });
  await relay.line({ line: "   ", bytes: 3 });
  assertEquals(sent, []);
  assertEquals(written.map((w) => [w.id, w.error?.code]), [["big", -32600], [null, -32700]]);
  assertMatch(written[0].error!.message, /dropped a message of 5000 bytes.*100 bytes at most/);
  assertEquals(logs.length, 2);
});

Deno.test("a request the hub did not take is answered with an error and frees its place", async () => {
  const written: Out[] = [];
  const relay = createRelay({
    send: () => Promise.reject(new TypeError("fetch failed")),
    write: (message) => (written.push(message as Out), Promise.resolve()),
    log: () => {},
    port: 9515,
    limits: { maxInFlight: 1, maxQueued: 0, maxHeldBytes: 1_000 },
  });
  const line = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  await relay.line({ line, bytes: line.length });
  await flush();
  await flush();
  assertEquals(written[0].id, 1);
  assertMatch(written[0].error!.message, /hub on port 9515 did not take the request: fetch failed/);
  assertEquals(relay.inFlight, 0);
});
