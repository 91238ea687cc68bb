import { assertEquals } from "../../tests/helpers/assert.ts";
import { createOutbox } from "./outbox.ts";

/** A stand-in socket that records frames. */
function fakeSocket() {
  const frames: unknown[] = [];
  const socket = {
    readyState: WebSocket.OPEN,
    send: (text: string) => void frames.push(JSON.parse(text)),
  } as unknown as WebSocket;
  return { socket, frames };
}

const start = {
  jsonrpc: "2.0" as const,
  method: "tool.invocationStart",
  params: { invocationId: "a" },
};
const end = {
  jsonrpc: "2.0" as const,
  method: "tool.invocationEnd",
  params: { invocationId: "a" },
};
const dispatch = { jsonrpc: "2.0" as const, id: 1, method: "tool.dispatch", params: {} };
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

Deno.test("other messages go out at once, each in its own frame", () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(dispatch);
  box.send({ jsonrpc: "2.0", method: "sync.full", params: {} });
  assertEquals(frames.length, 2);
  assertEquals(frames[0], dispatch);
});

Deno.test("a waiting invocation notification rides in one batch before the next message", () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(start);
  assertEquals(frames, []);
  box.send(dispatch);
  assertEquals(frames, [[start, dispatch]]);
});

Deno.test("waiting notifications go out on their own a moment later, in order", async () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(start);
  box.send(end);
  await tick();
  assertEquals(frames, [[start, end]]);
  box.send(end);
  await tick();
  assertEquals(frames, [[start, end], end]); // one alone is not wrapped in a batch
});

Deno.test("a message too large to share a frame goes after the waiting ones, separately", () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(start);
  const big = { ...dispatch, params: { text: "x".repeat(4_000_000) } };
  box.send(big);
  assertEquals(frames.length, 2);
  assertEquals(frames[0], start);
});

Deno.test("nothing is written to a closed socket, and flush() ends the wait", () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(start);
  (socket as { readyState: number }).readyState = WebSocket.CLOSED;
  box.flush();
  assertEquals(box.send(dispatch), false);
  assertEquals(frames, []);
});
