/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../tests/helpers/assert.ts";
import {
  escapeCodePoint,
  hasHiddenCharacters,
  visibleJson,
  visibleSegments,
  visibleText,
} from "./visible_text.ts";

Deno.test("visibleText: a right-to-left override is escaped, so the name reads as stored", () => {
  // Stored backwards after U+202E, it would show as "Browser Tools ✔ Official".
  const spoof = "\u202ElaiciffO ✔ slooT resworB";
  assertEquals(visibleText(spoof), "⟨U+202E⟩laiciffO ✔ slooT resworB");
  assertEquals(visibleText("report\u202Efdp.exe"), "report⟨U+202E⟩fdp.exe");
});

Deno.test("visibleText: every bidi control is escaped", () => {
  const bidi = [
    0x202a,
    0x202b,
    0x202c,
    0x202d,
    0x202e,
    0x2066,
    0x2067,
    0x2068,
    0x2069,
    0x200e,
    0x200f,
    0x061c,
  ];
  for (const cp of bidi) {
    assertEquals(visibleText(`a${String.fromCodePoint(cp)}b`), `a${escapeCodePoint(cp)}b`);
  }
});

Deno.test("visibleText: zero-width, invisible and format characters are escaped", () => {
  const hidden = [
    0x200b, // zero-width space
    0x200c, // zero-width non-joiner
    0x200d, // zero-width joiner
    0x2060, // word joiner
    0x2061,
    0x2062,
    0x2063,
    0x2064,
    0xfeff, // byte order mark
    0x00ad, // soft hyphen
    0x180e, // Mongolian vowel separator
    0x3164, // Hangul filler
    0x115f,
    0xfe0f, // variation selector
    0x2800, // blank braille pattern
    0xe0041, // tag character
    0xfff9, // interlinear annotation anchor
    0x2028, // line separator
    0x2029, // paragraph separator
  ];
  for (const cp of hidden) {
    const text = `a${String.fromCodePoint(cp)}b`;
    assertEquals(visibleText(text), `a${escapeCodePoint(cp)}b`, cp.toString(16));
    assert(hasHiddenCharacters(text));
  }
});

Deno.test("visibleText: control characters are escaped, terminal escapes included", () => {
  assertEquals(visibleText("\x1b[2Jok"), "⟨U+001B⟩[2Jok");
  assertEquals(visibleText("safe\rrm -rf"), "safe⟨U+000D⟩rm -rf");
  assertEquals(visibleText("a\x00b\x7fc\x85d\x9be"), "a⟨U+0000⟩b⟨U+007F⟩c⟨U+0085⟩d⟨U+009B⟩e");
});

Deno.test("visibleText: line breaks and tabs are escaped on one line, kept with lines: true", () => {
  assertEquals(visibleText("a\nb\tc"), "a⟨U+000A⟩b⟨U+0009⟩c");
  assertEquals(visibleText("a\r\nb"), "a⟨U+000D⟩⟨U+000A⟩b");
  assertEquals(visibleText("a\nb\tc\r\nd", { lines: true }), "a\nb\tc\r\nd");
  // A lone carriage return still overwrites a terminal line: escaped either way.
  assertEquals(visibleText("a\rb", { lines: true }), "a⟨U+000D⟩b");
  assertEquals(visibleText("a\u2028b", { lines: true }), "a⟨U+2028⟩b");
});

Deno.test("visibleText: lone surrogates are escaped; ordinary text, accents and emoji stay", () => {
  assertEquals(visibleText("a\uD800b"), "a⟨U+D800⟩b");
  const plain = "Browser tools: read, click “Ask me” → ✓ Ünïcødé 日本語 👍🏽 …";
  assertEquals(visibleText(plain), plain);
  assert(!hasHiddenCharacters(plain));
  assertEquals(visibleText(""), "");
});

Deno.test("visibleText is idempotent: an escape shows as itself", () => {
  const once = visibleText("x\u202Ey\u200Bz\n");
  assertEquals(visibleText(once), once);
});

Deno.test("escapeCodePoint pads to four hex digits and keeps longer ones", () => {
  assertEquals(escapeCodePoint(0x1b), "⟨U+001B⟩");
  assertEquals(escapeCodePoint(0xe0001), "⟨U+E0001⟩");
});

Deno.test("visibleSegments: escapes made here are marked, look-alike text is not", () => {
  const text = "a\u202Eb⟨U+202E⟩c\nd\r\n";
  assertEquals(visibleSegments(text, { lines: true }), [
    { text: "a", escaped: false },
    { text: "⟨U+202E⟩", escaped: true },
    { text: "b⟨U+202E⟩c\nd\r\n", escaped: false },
  ]);
  assertEquals(visibleSegments(text).map((s) => s.text).join(""), visibleText(text));
  assertEquals(visibleSegments(""), []);
  assertEquals(visibleSegments("plain"), [{ text: "plain", escaped: false }]);
});

Deno.test("visibleJson: hidden characters in strings become \\u escapes of the same value", () => {
  const value = { "report\u202Efdp.exe": ["a\u200Bb", "tag\u{E0041}"], n: 1 };
  const json = JSON.stringify(value, null, 2);
  const shown = visibleJson(json);
  assert(!hasHiddenCharacters(shown, { lines: true }), shown);
  assert(shown.includes("report\\u202efdp.exe"), shown);
  assert(shown.includes("tag\\udb40\\udc41"), shown);
  assertEquals(JSON.parse(shown), value);
  assertEquals(visibleJson(JSON.stringify({ a: "plain" })), '{"a":"plain"}');
});
