/// <reference lib="deno.ns" />
import { assertEquals } from "../tests/helpers/assert.ts";
import { boundedList, clip, clipForMessage, errorText, MAX_QUOTE, quoteClip } from "./clip.ts";

Deno.test("clip keeps short text and cuts long text to max characters ending in …", () => {
  assertEquals(clip("abc", 3), "abc");
  assertEquals(clip("abcdef", 4), "abc…");
  assertEquals(clip("abcdef", 4).length, 4);
});

Deno.test("clipForMessage says how long the value was; errorText reads an Error's message", () => {
  assertEquals(clipForMessage("x".repeat(100), 5), "xxxxx… (100 characters)");
  assertEquals(errorText(new Error("y".repeat(300)), 10), "yyyyyyyyy…");
  assertEquals(errorText("plain"), "plain");
});

Deno.test("boundedList keeps the first lines, cuts each, and counts the rest", () => {
  const bounds = { maxItems: 2, maxItemChars: 5 };
  assertEquals(boundedList(["a", "b"], bounds), ["a", "b"]);
  assertEquals(boundedList(["a", "bcdefgh", "c", "d"], bounds), ["a", "bcde…", "…and 2 more"]);
  assertEquals(boundedList(["a"], { ...bounds, total: 40 }), ["a", "…and 39 more"]);
  const more = (left: number) => `and ${left} more`;
  assertEquals(boundedList(["a", "b", "c"], { ...bounds, more }), ["a", "b", "and 1 more"]);
  assertEquals(boundedList([], bounds), []);
});

Deno.test("boundedList stops at maxTotalChars but always keeps the first line", () => {
  const bounds = { maxItems: 10, maxItemChars: 10, maxTotalChars: 12 };
  assertEquals(boundedList(["x".repeat(20), "yy", "zzz"], bounds), [
    `${"x".repeat(9)}…`,
    "yy",
    "…and 1 more",
  ]);
  assertEquals(boundedList(["x".repeat(20)], { ...bounds, maxTotalChars: 1 }), [
    `${"x".repeat(9)}…`,
  ]);
});

Deno.test("quoteClip quotes a value and cuts a long one, so the hint after it survives", () => {
  assertEquals(quoteClip("#email"), '"#email"');
  const long = quoteClip("x".repeat(5_000));
  assertEquals(long, `"${"x".repeat(MAX_QUOTE)}… (5000 characters)"`);
});
