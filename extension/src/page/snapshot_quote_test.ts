/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { NAME_MAX_CHARS } from "../../../protocol/browser_methods/dom_limits.ts";
import { quoted } from "./snapshot_quote.ts";

Deno.test("quoted escapes backslashes and quotes", () => {
  assertEquals(quoted('say "hi" \\ bye'), '"say \\"hi\\" \\\\ bye"');
  assertEquals(quoted(""), '""');
});

Deno.test("quoted folds line breaks, tabs and control characters to one space", () => {
  assertEquals(quoted("a\nb\r\nc\td"), '"a b c d"');
  assertEquals(quoted("a\u0000\u0007b\u007f\u0085c"), '"a b c"');
  assertEquals(quoted("a  \n\n  b"), '"a b"');
  assertEquals(quoted("a\u2028b"), '"a b"', "line separators fold too");
  assertEquals(quoted(" lead "), '" lead "', "not trimmed");
});

Deno.test("quoted cuts at max characters, the ellipsis included", () => {
  const long = "x".repeat(NAME_MAX_CHARS + 10);
  const cut = quoted(long);
  assertEquals(cut, `"${"x".repeat(NAME_MAX_CHARS - 1)}…"`);
  assertEquals([...cut.slice(1, -1)].length, NAME_MAX_CHARS);
  assertEquals(quoted("x".repeat(NAME_MAX_CHARS)), `"${"x".repeat(NAME_MAX_CHARS)}"`, "exact fits");
  assertEquals(quoted("abcdef", 4), '"abc…"');
  assertEquals(quoted('ab"def', 4), '"ab\\"…"', "cut before escaping: the … is never escaped away");
  assertEquals(quoted("a\n\n\nbcdef", 4), '"a b…"', "folding happens before the cut");
  assertEquals(quoted("ab😀cd", 4), '"ab…"', "a surrogate pair is never split");
  const huge = "y".repeat(1_000_000);
  assertEquals(quoted(huge), `"${"y".repeat(NAME_MAX_CHARS - 1)}…"`, "a huge value");
  const spaced = "a" + " ".repeat(10_000) + "b";
  assertEquals(quoted(spaced, 10), '"a …"', "only the first part of a huge value is read");
});
