/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import {
  MAX_FRAME_BYTES,
  parseBatchFrame,
  parseFrame,
  RPC_ERRORS,
  type RpcResponse,
  utf8Length,
} from "./rpc.ts";

/** The error reply of an invalid frame; fails when the frame was not invalid or had no reply. */
function replyOf(frame: unknown): RpcResponse & { error: { code: number; message: string } } {
  const parsed = parseFrame(frame);
  assertEquals(parsed.kind, "invalid");
  assert(parsed.kind === "invalid" && parsed.reply, "expected an error reply");
  assert("error" in parsed.reply, "expected the reply to carry an error");
  return parsed.reply;
}

// --- valid messages ---

Deno.test("parseFrame reads a request with its id, method and params", () => {
  const parsed = parseFrame(
    '{"jsonrpc":"2.0","id":7,"method":"tab.stateChanged","params":{"a":1}}',
  );
  assertEquals(parsed, {
    kind: "request",
    message: { jsonrpc: "2.0", id: 7, method: "tab.stateChanged", params: { a: 1 } },
  });
});

Deno.test("parseFrame accepts a string id on a request", () => {
  const parsed = parseFrame('{"jsonrpc":"2.0","id":"abc","method":"ping"}');
  assertEquals(parsed.kind, "request");
  assert(parsed.kind === "request");
  assertEquals(parsed.message.id, "abc");
});

Deno.test("parseFrame reads a message without an id as a notification", () => {
  const parsed = parseFrame('{"jsonrpc":"2.0","method":"ping"}');
  assertEquals(parsed, { kind: "notification", message: { jsonrpc: "2.0", method: "ping" } });
});

Deno.test("parseFrame reads result and error responses", () => {
  assertEquals(parseFrame('{"jsonrpc":"2.0","id":3,"result":{"ok":true}}'), {
    kind: "response",
    message: { jsonrpc: "2.0", id: 3, result: { ok: true } },
  });
  assertEquals(parseFrame('{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"m"}}'), {
    kind: "response",
    message: { jsonrpc: "2.0", id: "x", error: { code: -1, message: "m" } },
  });
});

Deno.test("parseFrame accepts a response whose result is null", () => {
  assertEquals(parseFrame('{"jsonrpc":"2.0","id":1,"result":null}').kind, "response");
});

// --- frames that are not JSON-RPC ---

Deno.test("invalid JSON is answered with -32700 and id null", () => {
  const reply = replyOf('{"jsonrpc":"2.0",');
  assertEquals(reply.id, null);
  assertEquals(reply.error.code, RPC_ERRORS.PARSE_ERROR);
  assertEquals(reply.error.code, -32700);
  assertMatch(reply.error.message, /^Invalid JSON: /);
  assertEquals(reply.jsonrpc, "2.0");
});

Deno.test("a batch (JSON array) is refused with -32600", () => {
  const reply = replyOf('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
  assertEquals(reply.error.code, RPC_ERRORS.INVALID_REQUEST);
  assertEquals(reply.id, null);
  assertMatch(reply.error.message, /Batches are not supported/);
  assertEquals(replyOf("[]").error.code, -32600);
});

Deno.test("a JSON value that is not an object is refused with -32600", () => {
  for (const frame of ["42", '"text"', "null", "true"]) {
    const reply = replyOf(frame);
    assertEquals(reply.error.code, -32600, frame);
    assertEquals(reply.id, null, frame);
    assertMatch(reply.error.message, /must be a JSON object/, frame);
  }
});

Deno.test("a wrong or missing jsonrpc version is refused, keeping a readable id", () => {
  const wrong = replyOf('{"jsonrpc":"1.0","id":5,"method":"ping"}');
  assertEquals(wrong.error.code, -32600);
  assertEquals(wrong.id, 5);
  assertMatch(wrong.error.message, /"jsonrpc" must be "2\.0"/);
  const missing = replyOf('{"id":"q","method":"ping"}');
  assertEquals(missing.id, "q");
  assertEquals(missing.error.code, -32600);
  const number = replyOf('{"jsonrpc":2,"id":1,"method":"ping"}');
  assertEquals(number.error.code, -32600);
});

Deno.test("a method that is not a non-empty string is refused", () => {
  for (const method of ["42", "null", '""', "{}"]) {
    const reply = replyOf(`{"jsonrpc":"2.0","id":9,"method":${method}}`);
    assertEquals(reply.error.code, -32600, method);
    assertEquals(reply.id, 9, method);
    assertMatch(reply.error.message, /"method" must be a string/, method);
  }
});

Deno.test("a request whose id is neither string nor number is refused with id null", () => {
  const reply = replyOf('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}');
  assertEquals(reply.id, null);
  assertMatch(reply.error.message, /"id" must be a string or a number/);
});

Deno.test("a response with both result and error (or neither) is refused", () => {
  const both = replyOf('{"jsonrpc":"2.0","id":4,"result":1,"error":{"code":1,"message":"m"}}');
  assertEquals(both.error.code, -32600);
  assertEquals(both.id, 4);
  assertMatch(both.error.message, /exactly one of "result", "error"/);
  const neither = replyOf('{"jsonrpc":"2.0","id":4}');
  assertMatch(neither.error.message, /exactly one of "result", "error"/);
});

Deno.test("a response whose error has no numeric code is refused", () => {
  const reply = replyOf('{"jsonrpc":"2.0","id":2,"error":{"code":"E","message":"m"}}');
  assertEquals(reply.error.code, -32600);
  assertMatch(reply.error.message, /numeric "code"/);
  assertEquals(replyOf('{"jsonrpc":"2.0","id":2,"error":null}').error.code, -32600);
});

Deno.test("a response without an id is refused", () => {
  const reply = replyOf('{"jsonrpc":"2.0","result":1}');
  assertEquals(reply.id, null);
  assertMatch(reply.error.message, /A response needs an "id"/);
});

Deno.test("a response with id null is dropped without a reply (replying could loop)", () => {
  assertEquals(parseFrame('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}'), {
    kind: "invalid",
  });
  assertEquals(parseFrame('{"jsonrpc":"2.0","id":null,"result":1}'), { kind: "invalid" });
});

Deno.test("a binary frame is answered with -32600 and id null", () => {
  const reply = replyOf(new Uint8Array([123, 125]));
  assertEquals(reply.id, null);
  assertEquals(reply.error.code, -32600);
  assertMatch(reply.error.message, /Binary frames are not supported/);
  assertEquals(replyOf(new ArrayBuffer(2)).error.code, -32600);
  assertEquals(replyOf(undefined).error.code, -32600);
});

// --- frame size ---

Deno.test("a frame of exactly MAX_FRAME_BYTES is parsed; one byte more is refused", () => {
  assertEquals(MAX_FRAME_BYTES, 10 * 1024 * 1024);
  const head = '{"jsonrpc":"2.0","method":"ping","params":{"pad":"';
  const tail = '"}}';
  const fits = head + "a".repeat(MAX_FRAME_BYTES - head.length - tail.length) + tail;
  assertEquals(fits.length, MAX_FRAME_BYTES);
  assertEquals(parseFrame(fits).kind, "notification");

  const over = head + "a".repeat(MAX_FRAME_BYTES - head.length - tail.length + 1) + tail;
  const reply = replyOf(over);
  assertEquals(reply.error.code, -32600);
  assertEquals(reply.id, null);
  assertMatch(
    reply.error.message,
    new RegExp(`Frame of ${MAX_FRAME_BYTES + 1} bytes refused: the limit is ${MAX_FRAME_BYTES}`),
  );
});

Deno.test("frame size counts UTF-8 bytes: multi-byte text under 10 M chars is still refused", () => {
  const head = '{"jsonrpc":"2.0","method":"ping","params":{"pad":"';
  const tail = '"}}';
  // "é" is one UTF-16 unit but two UTF-8 bytes: 6 M chars = 12 MB.
  const padChars = 6 * 1024 * 1024;
  const frame = head + "é".repeat(padChars) + tail;
  assert(frame.length < MAX_FRAME_BYTES, "fewer UTF-16 units than the byte limit");
  const bytes = head.length + tail.length + 2 * padChars;
  assertEquals(utf8Length(frame), bytes);
  const reply = replyOf(frame);
  assertEquals(reply.error.code, -32600);
  assertMatch(reply.error.message, new RegExp(`Frame of ${bytes} bytes refused`));
});

Deno.test("a multi-byte frame just under the byte limit is parsed", () => {
  const head = '{"jsonrpc":"2.0","method":"ping","params":{"pad":"';
  const tail = '"}}';
  const room = MAX_FRAME_BYTES - head.length - tail.length;
  // "€" is 3 bytes; fill with it and top up with ASCII to land exactly on the limit.
  const euros = Math.floor(room / 3);
  const frame = head + "€".repeat(euros) + "a".repeat(room - euros * 3) + tail;
  assertEquals(utf8Length(frame), MAX_FRAME_BYTES);
  assertEquals(parseFrame(frame).kind, "notification");
});

// --- utf8Length ---

Deno.test("utf8Length matches TextEncoder for ascii, 2-, 3- and 4-byte characters", () => {
  const encoder = new TextEncoder();
  const cases: [string, number][] = [
    ["", 0],
    ["hello", 5],
    ["\u007f", 1],
    ["\u0080", 2],
    ["é", 2],
    ["\u07ff", 2],
    ["\u0800", 3],
    ["€", 3],
    ["日本", 6],
    ["\uffff", 3],
    ["😀", 4],
    ["\u{10ffff}", 4],
    ["a😀é€", 1 + 4 + 2 + 3],
  ];
  for (const [text, bytes] of cases) {
    assertEquals(utf8Length(text), bytes, JSON.stringify(text));
    assertEquals(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  }
});

Deno.test("utf8Length counts a surrogate pair as one 4-byte character", () => {
  const pair = "\ud83d\ude00";
  assertEquals(pair.length, 2);
  assertEquals(utf8Length(pair), 4);
  assertEquals(utf8Length(pair.repeat(3)), 12);
});

Deno.test("parseBatchFrame: a batch gives each message in order; anything else as parseFrame", () => {
  const batch = JSON.stringify([
    { jsonrpc: "2.0", method: "tool.invocationStart", params: {} },
    { jsonrpc: "2.0", id: 4, method: "tool.dispatch", params: {} },
    { nope: true },
  ]);
  const parsed = parseBatchFrame(batch);
  assertEquals(parsed.map((p) => p.kind), ["notification", "request", "invalid"]);
  assertEquals(parseBatchFrame('{"jsonrpc":"2.0","method":"pong"}').map((p) => p.kind), [
    "notification",
  ]);
  assertEquals(parseBatchFrame("[]").map((p) => p.kind), ["invalid"]);
  assertEquals(parseBatchFrame("not json")[0].kind, "invalid");
  // The hub's own parser still refuses batches.
  assertEquals(parseFrame(batch).kind, "invalid");
});
