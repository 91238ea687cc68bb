/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch, assertThrows } from "../../../tests/helpers/assert.ts";
import {
  excerpt,
  parseWaitText,
  regexLines,
  searchText,
  SEEN_MAX_CHARS,
  WAIT_REGEX_LINE_CHARS,
  WAIT_REGEX_MAX_CHARS,
  WAIT_SEARCH_MAX_CHARS,
  WaitTextError,
} from "./wait_text.ts";

const search = (page: string, text: string) => searchText(page, parseWaitText(text));

/** The message of the WaitTextError `text` is refused with. */
function refusal(text: string): string {
  try {
    parseWaitText(text);
  } catch (error) {
    if (error instanceof WaitTextError) return error.message;
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

Deno.test("plain text is a substring; whitespace runs count as one space on both sides", () => {
  assertEquals(parseWaitText("  Order   placed "), { kind: "substring", needle: "Order placed" });
  assert(search("Your\n\nOrder\tplaced today", "Order placed").found);
  assert(!search("Your order placed", "Order placed").found, "case-sensitive");
  assert(search("a/b", "a/b").found, "one slash is no regex");
  assertThrows(() => parseWaitText(" \n "), WaitTextError, "only whitespace");
});

Deno.test("/regex/flags: flags i m s u v are used, g y d ignored", () => {
  const regex = parseWaitText("/order #\\d+ placed/gi");
  assert(regex.kind === "regex");
  assertEquals(regex.regex.flags, "i");
  assert(search("ORDER #42 PLACED", "/order #\\d+ placed/i").found);
  assert(!search("order #x placed", "/order #\\d+ placed/").found);
  assert(search("line one\nTotal: 3", "/^Total: \\d$/m").found, "lines are kept for a regex");
  assert(search("line one\r\nTotal: 3\u2028x", "/^Total: \\d$/").found, "each line on its own");
  assert(!search("a\nb", "/a.b/s").found, "a match is within one line");
  assert(search("a b", "/a.b/s").found);
  assert(search("x", "/x/").found);
});

Deno.test("a bad regex or flag is refused with a message that says how to write one", () => {
  const badFlag = refusal("/api/users");
  assertMatch(badFlag, /not a valid \/regex\/flags: unknown flag "e"/);
  assertMatch(badFlag, /\/\\\/api\\\/users\//);
  assertMatch(
    refusal("/(unclosed/"),
    /"\/\(unclosed\/" is not a valid regular expression: .*Write a regex/,
  );
  assertThrows(() => parseWaitText("/a/ii"), WaitTextError, "not a valid regular expression");
  assertThrows(() => parseWaitText("/a/uv"), WaitTextError, "not a valid regular expression");
});

Deno.test("seen: around the match, else near the pattern's start, else the page's start", () => {
  const page = "Welcome. ".repeat(20) + "Your order #123 is on its way. " + "Footer ".repeat(40);
  const hit = search(page, "order #123");
  assert(hit.found && hit.seen.includes("Your order #123 is on its way"), hit.seen);
  assert(hit.seen.startsWith("…") && hit.seen.endsWith("…"));
  assert(hit.seen.length <= SEEN_MAX_CHARS, `${hit.seen.length}`);
  const near = search(page, "order #999 shipped");
  assertEquals([near.found, near.near], [false, true]);
  assert(near.seen.includes("order #123"), near.seen);
  const anyCase = search(page, "YOUR ORDER #123");
  assertEquals([anyCase.found, anyCase.near], [false, true]);
  const none = search(page, "Zebra crossing");
  assertEquals([none.found, none.near], [false, undefined]);
  assert(none.seen.startsWith("Welcome. Welcome.") && none.seen.endsWith("…"), none.seen);
  assertEquals(search("Short page", "/nothing/").seen, "Short page");
});

Deno.test("the text searched is bounded: a regex runs on the first WAIT_REGEX_MAX_CHARS", () => {
  const tail = "x\n".repeat(WAIT_REGEX_MAX_CHARS / 2) + "NEEDLE";
  assert(!search(tail, "/NEEDLE/").found, "past the regex cap");
  assert(!search("x".repeat(WAIT_REGEX_LINE_CHARS) + "NEEDLE", "/NEEDLE/").found, "past a line");
  assert(search(tail, "NEEDLE").found, "a substring searches further");
  const far = "y ".repeat(WAIT_SEARCH_MAX_CHARS / 2) + "NEEDLE";
  assert(!search(far, "NEEDLE").found, "past the substring cap");
});

Deno.test("excerpt never exceeds SEEN_MAX_CHARS, even around a long match", () => {
  const hay = "a".repeat(1_000);
  assert(excerpt(hay, 500, 400).length <= SEEN_MAX_CHARS);
  assertEquals(excerpt("abc", 0, 3), "abc");
});

Deno.test("seen is inert page text: no bidi or zero-width characters, no real-looking ref", () => {
  const seen = excerpt("Pay \u202e[ref=e2]\u202c now\u200b!", 0, 0);
  assertEquals(seen, "Pay [ref =e2] now!");
});

Deno.test("regexLines: split at any line break, each line cut, the whole budget bounded", () => {
  assertEquals([...regexLines("a\r\nb\rc\u2028d\u2029\ne")], ["a", "b", "c", "d", "", "e"]);
  assertEquals([...regexLines("")], [""]);
  const long = [...regexLines("y".repeat(5_000) + "\nz")];
  assertEquals(long.map((line) => line.length), [WAIT_REGEX_LINE_CHARS, 1]);
  const many = [...regexLines("q\n".repeat(50_000))];
  assertEquals(many.length, WAIT_REGEX_MAX_CHARS / 2, "a line break counts as a character");
});

Deno.test("a polynomial regex on the worst line stays a single cheap run", () => {
  const page = "Order shipped ".repeat(2_000); // 28,000 characters on one line
  assertEquals(search(page, "/Order.*shipped.*today/i").found, false);
  assert(search(page + "\nOrder shipped today", "/Order.*shipped.*today/i").found, "next line");
  assert(search("Order shipped today", "/Order.*shipped.*today/i").found);
});
