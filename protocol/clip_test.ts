import { assertEquals } from "../tests/helpers/assert.ts";
import { clip, clipForMessage, errorText } from "./clip.ts";

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
