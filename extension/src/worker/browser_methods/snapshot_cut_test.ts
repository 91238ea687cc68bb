/// <reference lib="deno.ns" />
import { assertEquals, assertThrows } from "../../../../tests/helpers/assert.ts";
import { HubError } from "../../../../protocol/errors.ts";
import { cutSnapshot, LONG_LINE_BYTES } from "./snapshot_cut.ts";

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** Every part from offset 0 on, following nextOffset. */
function parts(text: string, maxBytes: number): string[] {
  const out: string[] = [];
  let offset = 0;
  for (;;) {
    const part = cutSnapshot(text, maxBytes, offset);
    assertEquals(part.totalBytes, bytes(text));
    out.push(part.text);
    if (!part.truncated) return out;
    offset = part.nextOffset!;
  }
}

Deno.test("cutSnapshot answers a short text whole", () => {
  assertEquals(cutSnapshot("# T — u\n- a", 1000), {
    text: "# T — u\n- a",
    truncated: false,
    totalBytes: bytes("# T — u\n- a"),
  });
});

Deno.test("cutSnapshot cuts after a line end and the parts give the whole back", () => {
  const lines = Array.from(
    { length: 200 },
    (_, i) => `${"  ".repeat(i % 4)}- text: line ${i} ✓ é 𝄞`,
  );
  const text = lines.join("\n");
  for (const max of [40, 100, 1000, 1999]) {
    const got = parts(text, max);
    assertEquals(got.join(""), text);
    for (const part of got) {
      if (max >= 40) assertEquals(bytes(part) <= max, true);
    }
    for (const part of got.slice(0, -1)) assertEquals(part.endsWith("\n"), true);
  }
  const first = cutSnapshot(text, 100);
  assertEquals(first.nextOffset, bytes(first.text));
});

Deno.test("cutSnapshot cuts a line longer than maxBytes inside, never inside a character", () => {
  const long = "- text: " + "日本語𝄞".repeat(400); // > LONG_LINE_BYTES
  const text = `# T — u\n${long}\n- button "B" [ref=e1]`;
  const got = parts(text, 1001);
  assertEquals(got.join(""), text);
  for (const part of got) {
    assertEquals(bytes(part) <= 1001, true);
    assertEquals(part.includes("\uFFFD"), false);
  }
  assertEquals(bytes(long) > LONG_LINE_BYTES, true);
});

Deno.test("cutSnapshot refuses an offset that no part starts at", () => {
  const text = "# T — u\n- a\n- b";
  const bad = (offset: number) =>
    assertThrows(() => cutSnapshot(text, 1000, offset), HubError, "nextOffset");
  bad(3); // inside a short line
  bad(bytes(text)); // at the end
  bad(bytes(text) + 10); // past it
  assertEquals(cutSnapshot(text, 1000, bytes("# T — u\n")).text, "- a\n- b");
  const error = (() => {
    try {
      cutSnapshot(text, 1000, 3);
    } catch (e) {
      return e as HubError;
    }
  })();
  assertEquals(error?.payload.code, "INVALID_ARGUMENTS");
});
