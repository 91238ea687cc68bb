import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { createWsFrameWatch } from "./ws_frame_watch.ts";

const LIMIT = 1000;

/** A masked client frame header (payload not included). */
function frameHeader(opcode: number, length: number, fin = true): Uint8Array {
  const first = (fin ? 0x80 : 0) | opcode;
  const mask = [1, 2, 3, 4];
  if (length < 126) return new Uint8Array([first, 0x80 | length, ...mask]);
  if (length < 65536) {
    return new Uint8Array([first, 0x80 | 126, length >> 8, length & 255, ...mask]);
  }
  const bytes = [first, 0x80 | 127];
  for (let i = 7; i >= 0; i--) bytes.push(Math.floor(length / 2 ** (8 * i)) % 256);
  return new Uint8Array([...bytes, ...mask]);
}

function frame(opcode: number, length: number, fin = true): Uint8Array {
  const header = frameHeader(opcode, length, fin);
  const out = new Uint8Array(header.length + length);
  out.set(header);
  return out;
}

Deno.test("frames within the limit pass, however they are split", () => {
  const bytes = new Uint8Array([
    ...frame(1, 10),
    ...frame(2, 300),
    ...frame(9, 5),
    ...frame(1, LIMIT),
  ]);
  for (const size of [1, 2, 7, 64, bytes.length]) {
    const watch = createWsFrameWatch(LIMIT);
    for (let i = 0; i < bytes.length; i += size) {
      assertEquals(watch.push(bytes.subarray(i, i + size)), undefined, `split by ${size}`);
    }
  }
});

Deno.test("a frame header declaring more than the limit is refused before its payload", () => {
  for (const length of [LIMIT + 1, 70_000, 50 * 1024 * 1024, 2 ** 40]) {
    const watch = createWsFrameWatch(LIMIT);
    assertMatch(watch.push(frameHeader(2, length)) ?? "", /over the limit/);
  }
  const watch = createWsFrameWatch(LIMIT);
  const header = frameHeader(1, 50 * 1024 * 1024);
  assertEquals(watch.push(header.subarray(0, 5)), undefined); // not known yet
  assertMatch(watch.push(header.subarray(5)) ?? "", /over the limit/);
});

Deno.test("a fragmented message is refused once its running total passes the limit", () => {
  const watch = createWsFrameWatch(LIMIT);
  assertEquals(watch.push(frame(1, 400, false)), undefined);
  assertEquals(watch.push(frame(0, 400, false)), undefined);
  assertEquals(watch.push(frame(9, 4)), undefined); // a ping between fragments is fine
  assertMatch(watch.push(frameHeader(0, 201, false)) ?? "", /over the limit/);
  // the total restarts with each message
  const next = createWsFrameWatch(LIMIT);
  for (let i = 0; i < 5; i++) {
    assertEquals(next.push(frame(1, 600, false)), undefined);
    assertEquals(next.push(frame(0, 400, true)), undefined);
  }
});

Deno.test("frames no client may send are refused", () => {
  const cases: [Uint8Array, RegExp][] = [
    [new Uint8Array([0x81, 0x05]), /masked/],
    [frameHeader(9, 126), /control/],
    [frameHeader(9, 5, false), /control/],
    [frameHeader(0, 5), /continuation/],
    [frameHeader(3, 5), /unknown data opcode/],
    [frameHeader(0xb, 5), /unknown control opcode/],
    [new Uint8Array([0x82, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4]), /2\^53/],
  ];
  for (const [bytes, pattern] of cases) {
    assertMatch(createWsFrameWatch(LIMIT).push(bytes) ?? "", pattern);
  }
  const watch = createWsFrameWatch(LIMIT);
  assertEquals(watch.push(frame(1, 5, false)), undefined);
  assertMatch(watch.push(frameHeader(2, 5)) ?? "", /before the previous one ended/);
});
