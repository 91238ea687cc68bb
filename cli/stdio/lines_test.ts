import { assertEquals } from "../../tests/helpers/assert.ts";
import { boundedLines, type LineEvent, topLevelId } from "./lines.ts";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));
}

async function collect(stream: ReadableStream<Uint8Array>, max: number): Promise<LineEvent[]> {
  return await Array.fromAsync(boundedLines(stream, max));
}

Deno.test("lines split across chunks and several in one chunk; CRLF; a last line without newline", async () => {
  const events = await collect(streamOf('{"a":', '1}\n{"b":2}\r\n{"c"', ":3}"), 100);
  assertEquals(events, [
    { line: '{"a":1}', bytes: 7 },
    { line: '{"b":2}', bytes: 8 },
    { line: '{"c":3}', bytes: 7 },
  ]);
});

Deno.test("a line over the limit is dropped as it arrives, with its id; the next line is read", async () => {
  const long = '{"jsonrpc":"2.0","id":"big","method":"x","params":{"t":"' + "a".repeat(50);
  const events = await collect(streamOf(long.slice(0, 30), long.slice(30), '"}}\n{"id":2}\n'), 40);
  assertEquals(events, [{ tooLong: long.length + 3, id: "big" }, { line: '{"id":2}', bytes: 8 }]);
});

Deno.test("topLevelId: only the outer object's id, a string or an integer", () => {
  assertEquals(topLevelId('{"jsonrpc":"2.0","id":7,"method":"m"'), 7);
  assertEquals(topLevelId('{"params":{"id":1},"id":"x\\"y",'), 'x"y');
  assertEquals(topLevelId('{"params":{"id":1},"method":"id"'), undefined);
  assertEquals(topLevelId('{"id":{"nested":1}}'), undefined);
  assertEquals(topLevelId('{"id":"' + "z".repeat(300) + '"}'), undefined, "too long to echo");
  assertEquals(topLevelId('{"params":"unterminated'), undefined);
});
