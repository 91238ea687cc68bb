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

const start = { jsonrpc: "2.0" as const, method: "tool.invocationStart", params: { id: "a" } };
const end = { jsonrpc: "2.0" as const, method: "tool.invocationEnd", params: { id: "a" } };
const dispatch = { jsonrpc: "2.0" as const, id: 1, method: "tool.dispatch", params: {} };

Deno.test("other messages go out at once, each in its own frame", () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(dispatch);
  box.send(end);
  box.send({ jsonrpc: "2.0", method: "sync.full", params: {} });
  assertEquals(frames.length, 3);
  assertEquals(frames[0], dispatch);
  assertEquals(frames[1], end);
});

Deno.test("invocationStart waits and rides in one batch with the next message", () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(start);
  assertEquals(frames, []);
  box.send(dispatch);
  assertEquals(frames, [[start, dispatch]]);
  box.send(start);
  box.send(end); // a call refused before dispatch: start and end together
  assertEquals(frames, [[start, dispatch], [start, end]]);
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

Deno.test("flush() sends what waits; nothing is written to a closed socket", () => {
  const { socket, frames } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(start);
  box.flush();
  assertEquals(frames, [start]);
  box.send(start);
  (socket as { readyState: number }).readyState = WebSocket.CLOSED;
  box.flush();
  assertEquals(box.send(dispatch), false);
  assertEquals(frames, [start]);
});

Deno.test("a message already serialized by the caller goes out as that text", () => {
  const texts: string[] = [];
  const socket = {
    readyState: WebSocket.OPEN,
    send: (text: string) => void texts.push(text),
  } as unknown as WebSocket;
  const box = createOutbox(socket, () => {});
  // Spaced out, so a re-serialized message would show.
  const startText = JSON.stringify(start, null, 1);
  const dispatchText = JSON.stringify(dispatch, null, 1);
  box.send(start, startText);
  box.send(dispatch, dispatchText);
  box.send(end, "as given");
  assertEquals(texts, [`[${startText},${dispatchText}]`, "as given"]);
});
