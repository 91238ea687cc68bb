/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch, assertThrows } from "../../../tests/helpers/assert.ts";
import { MAX_UNBOUNDED, regexRisk } from "./regex_risk.ts";
import {
  parseWaitText,
  searchText,
  WAIT_REGEX_LINE_CHARS,
  WAIT_REGEX_MAX_CHARS,
  WaitTextError,
} from "./wait_text.ts";

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

Deno.test("a repeated group with a choice anywhere inside is a risk", () => {
  const choice = (source: string, piece: string) =>
    assertEquals(regexRisk(source), { kind: "choice", piece }, source);
  choice("(a|aa)+$", "(a|aa)+");
  choice("(a|a)*", "(a|a)*");
  choice("(?:\\w|\\d)+!", "(?:\\w|\\d)+");
  choice("(x|)+", "(x|)+");
  choice("(.|\\s)*end", "(.|\\s)*");
  choice("(a|[ab])+$", "(a|[ab])+");
  choice("(beep|boop)*", "(beep|boop)*");
  choice("((x|y)z){2,}", "((x|y)z){2,}");
});

Deno.test("more than two unbounded repeats in the whole regex are a risk", () => {
  assertEquals(MAX_UNBOUNDED, 2);
  const many = (source: string) =>
    assertEquals(regexRisk(source), { kind: "unbounded", piece: source }, source);
  many("a*a*a*b");
  many("x+y+z+");
  many("a{2,}b*c+");
  many("(?:a*)?b*c*");
  for (const two of ["Order.*shipped.*today", "a*b+", "[*+]+x*y{2,5}", "a+?b?c{3}d*"]) {
    assertEquals(regexRisk(two), undefined, two);
  }
});

Deno.test("common regexes pass: one level of repeats, a repeated choice of distinct words", () => {
  const safe: Array<[string, string]> = [
    ["order #\\d+ placed", "i"],
    ["(beep|boop)", ""],
    ["(beep|boop)?", ""],
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
  assertThrows(() => parseWaitText("/(a|aa)+/i"), WaitTextError, "a choice (|) inside");
  assertThrows(() => parseWaitText("/(a|[ab])+$/"), WaitTextError, "Write the choice without");
  assertThrows(() => parseWaitText("/a*a*a*b/"), WaitTextError, "more than 2 unbounded repeats");
  assertEquals(parseWaitText("/Order.*shipped.*today/i").kind, "regex");
  assertEquals(parseWaitText("/order #\\d+ placed/i").kind, "regex");
});

Deno.test("a regex runs on lines of at most 1,000 characters, 20,000 in all", () => {
  assertEquals([WAIT_REGEX_LINE_CHARS, WAIT_REGEX_MAX_CHARS], [1_000, 20_000]);
  const line = "x".repeat(WAIT_REGEX_LINE_CHARS - 6);
  assert(searchText(line + "NEEDLE", parseWaitText("/NEEDLE/")).found);
  assert(!searchText("z" + line + "NEEDLE", parseWaitText("/NEEDLE/")).found, "past the line cut");
  const full = "x".repeat(WAIT_REGEX_LINE_CHARS - 1) + "\n"; // 1,000 with its line break
  assert(searchText(full.repeat(19) + "NEEDLE", parseWaitText("/NEEDLE/")).found);
  assert(!searchText(full.repeat(20) + "NEEDLE", parseWaitText("/NEEDLE/")).found, "past 20,000");
});
