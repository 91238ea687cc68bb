/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch, assertThrows } from "../../../tests/helpers/assert.ts";
import { regexRisk } from "./regex_risk.ts";
import { parseWaitText, searchText, WAIT_REGEX_MAX_CHARS, WaitTextError } from "./wait_text.ts";

Deno.test("a repeat inside a repeat is a risk, whatever the group's kind", () => {
  const nested = (source: string, piece: string, flags = "") =>
    assertEquals(regexRisk(source, flags), { kind: "nested", piece }, source);
  nested("(a+)+$", "(a+)+");
  nested("^(a*)*b", "(a*)*");
  nested("Total: (\\d+,?)+ USD", "(\\d+,?)+");
  nested("x(?:ab{2,}c){3}", "(?:ab{2,}c){3}");
  nested("((ab)+c)*", "((ab)+c)*");
  nested("(?<n>\\w+\\s)+?", "(?<n>\\w+\\s)+?");
  nested("(a{1,5}){2,}", "(a{1,5}){2,}");
  nested("(\\p{L}+)*", "(\\p{L}+)*", "u");
});

Deno.test("a repeated choice whose alternatives can match the same text is a risk", () => {
  const overlap = (source: string, piece: string) =>
    assertEquals(regexRisk(source), { kind: "overlap", piece }, source);
  overlap("(a|aa)+$", "(a|aa)+");
  overlap("(a|a)*", "(a|a)*");
  overlap("(?:\\w|\\d)+!", "(?:\\w|\\d)+");
  overlap("(x|)+", "(x|)+");
  overlap("(.|\\s)*end", "(.|\\s)*");
});

Deno.test("common regexes pass: one level of repeats, a repeated choice of distinct words", () => {
  const safe: Array<[string, string]> = [
    ["order #\\d+ placed", "i"],
    ["(beep|boop)*", ""],
    ["\\blocation\\s*:[^:\\n]+\\b(Oakland|San Francisco)\\b", ""],
    ["(ab)?c+", ""],
    ["(a+)?", ""],
    ["(a){2}", ""],
    ["[(a+)+]", ""],
    ["\\(a+\\)+", ""],
    ["\\u{61}+", "u"],
    ["a{,2}+", ""],
    ["(?=a+)b", ""],
    ["[[a-z]--[aeiou]]+", "v"],
  ];
  for (const [source, flags] of safe) {
    new RegExp(source, flags); // it compiles, as parseWaitText checks first
    assertEquals(regexRisk(source, flags), undefined, source);
  }
});

Deno.test("parseWaitText refuses a risky regex with INVALID_ARGUMENTS' hint, before any page", () => {
  let message = "";
  try {
    parseWaitText("/(a+)+$/");
  } catch (error) {
    assert(error instanceof WaitTextError);
    message = error.message;
  }
  assertMatch(message, /^"\/\(a\+\)\+\$\/" is refused: "\(a\+\)\+" is a repeat inside a repeat/);
  assertMatch(
    message,
    /Write it without the nested repeat .*or pass the words .* as plain text\.$/,
  );
  assertThrows(() => parseWaitText("/(a|aa)+/i"), WaitTextError, "alternatives can match");
  assertEquals(parseWaitText("/order #\\d+ placed/i").kind, "regex");
});

Deno.test("a regex runs on the first 20,000 characters of a document's text", () => {
  assertEquals(WAIT_REGEX_MAX_CHARS, 20_000);
  const page = "x".repeat(WAIT_REGEX_MAX_CHARS - 6) + "NEEDLE" + "y";
  assert(searchText(page, parseWaitText("/NEEDLE/")).found);
  assert(!searchText("z" + page, parseWaitText("/NEEDLE/")).found, "one character too far");
});
