/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { inertText } from "./inert_text.ts";

Deno.test("inertText drops every default-ignorable character between [ref and =", () => {
  for (
    const hidden of [
      "\u00ad", // soft hyphen
      "\u034f", // combining grapheme joiner
      "\ufe00",
      "\ufe0e",
      "\ufe0f", // variation selectors, not after an emoji
      "\u180e", // Mongolian vowel separator
      "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff",
      "\u202a\u202e\u2066\u2069\u061c",
      "\u3164", // Hangul filler
      "\u{e0072}\u{e0065}", // tag characters
      "\u00ad\n\u034f", // mixed with a line break: folded to a space
    ]
  ) {
    const inert = inertText(`[ref${hidden}=e2]`);
    assertEquals(/\[ref=/i.test(inert), false, JSON.stringify(hidden));
    assertEquals(/^\[ref ?=e2\]$/.test(inert), true, `${JSON.stringify(hidden)}: ${inert}`);
  }
  assertEquals(inertText("soft\u00adhy\u034fphen\u180e"), "softhyphen");
});

Deno.test("inertText keeps what an emoji needs: ZWJ sequences, presentation selectors, flag tags", () => {
  const kept = [
    "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}", // family
    "\u2764\ufe0f\u200d\u{1f525}", // heart on fire
    "\u2764\ufe0f",
    "1\ufe0f\u20e3", // keycap one
    "\u{1f44d}\u{1f3fd}\u200d\u{1f4bb}".slice(0, 4), // a skin tone (no ZWJ)
    "\u{1f469}\u{1f3fd}\u200d\u{1f4bb}", // technologist with a skin tone
    "\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}", // flag of Scotland
  ];
  for (const emoji of kept) assertEquals(inertText(emoji), emoji, JSON.stringify(emoji));
  assertEquals(inertText("\u{1f468}\u200d"), "\u{1f468}", "a ZWJ with no emoji after it");
  assertEquals(inertText("a\u200d\u{1f468}"), "a\u{1f468}", "a ZWJ with no emoji before it");
  assertEquals(inertText("x\ufe0f"), "x", "a selector after a letter");
  assertEquals(inertText("x\u{e0067}"), "x", "a tag with no flag");
});

Deno.test("inertText folds line breaks and controls to a space and writes [ref= as [ref =", () => {
  assertEquals(inertText(" a \n\u2028 b\u0085c\u0000"), " a b c ");
  assertEquals(inertText("[REF=e1] [ref=f1e2]"), "[REF =e1] [ref =f1e2]");
  assertEquals(inertText('rtl \u202e]1e=fer[ "yaP"\u202c'), 'rtl ]1e=fer[ "yaP"');
});
