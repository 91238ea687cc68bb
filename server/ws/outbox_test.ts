import { assertEquals } from "../../tests/helpers/assert.ts";
import { createOutbox } from "./outbox.ts";

/** A stand-in socket that records frames. */
function fakeSocket() {
  const texts: string[] = [];
  const socket = {
    readyState: WebSocket.OPEN,
    send: (text: string) => void texts.push(text),
  } as unknown as WebSocket;
  return { socket, texts };
}

const end = { jsonrpc: "2.0" as const, method: "tool.invocationEnd", params: { id: "a" } };
const dispatch = { jsonrpc: "2.0" as const, id: 1, method: "tool.dispatch", params: {} };

Deno.test("every message goes out at once, each in its own frame", () => {
  const { socket, texts } = fakeSocket();
  const box = createOutbox(socket, () => {});
  assertEquals(box.send(dispatch), true);
  assertEquals(box.send(end), true);
  assertEquals(texts.map((t) => JSON.parse(t)), [dispatch, end]);
});

Deno.test("a message already serialized by the caller goes out as that text", () => {
  const { socket, texts } = fakeSocket();
  const box = createOutbox(socket, () => {});
  box.send(dispatch, "as given");
  assertEquals(texts, ["as given"]);
});

Deno.test("nothing is written to a closed socket; a failing send is reported, not thrown", () => {
  const { socket, texts } = fakeSocket();
  const errors: string[] = [];
  const box = createOutbox(socket, (e) => errors.push(e.message));
  (socket as { readyState: number }).readyState = WebSocket.CLOSED;
  assertEquals(box.send(dispatch), false);
  assertEquals(texts, []);
  (socket as { readyState: number }).readyState = WebSocket.OPEN;
  (socket as unknown as { send: () => void }).send = () => {
    throw new Error("broken pipe");
  };
  assertEquals(box.send(dispatch), false);
  assertEquals(errors, ["broken pipe"]);
});
