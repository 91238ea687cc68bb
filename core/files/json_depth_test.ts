import { assertEquals, assertMatch, assertThrows } from "../../tests/helpers/assert.ts";
import {
  jsonDepthProblem,
  MAX_JSON_DEPTH,
  parseBoundedJson,
  scanJson,
  stringEnd,
} from "./json_depth.ts";

Deno.test("jsonDepthProblem: depth up to the bound passes, one more is named with its line", () => {
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
  assertEquals(jsonDepthProblem(nested(MAX_JSON_DEPTH)), undefined);
  assertEquals(jsonDepthProblem('{"a": {"b": [1, {"c": 2}]}}', 4), undefined);
  assertEquals(
    jsonDepthProblem('{"a": {"b": [1, {"c": 2}]}}', 3),
    "nests deeper than 3 levels (at line 1)",
  );
  assertEquals(
    jsonDepthProblem(`{\n"a":\n[[\n[1]]]}`, 3),
    "nests deeper than 3 levels (at line 4)",
  );
});

Deno.test("jsonDepthProblem: brackets in strings and comments do not count", () => {
  const text = `{ "a": "[[[[{{{{\\"[[[", // [[[[[
    /* {{{{{{ */ "b": ["]]]]"] }`;
  assertEquals(jsonDepthProblem(text, 2), undefined);
});

Deno.test("jsonDepthProblem: a million nested [ is answered, without recursion", () => {
  const text = "[".repeat(1_000_000);
  assertMatch(jsonDepthProblem(text)!, /nests deeper than 128 levels/);
});

Deno.test("parseBoundedJson: parses within the bound, throws SyntaxError past it", () => {
  assertEquals(parseBoundedJson('{"a": [1]}'), { a: [1] });
  assertThrows(() => parseBoundedJson("[[[1]]]", 2), SyntaxError);
  assertThrows(() => parseBoundedJson("{"), SyntaxError);
});

Deno.test("scanJson: strings and brackets in order with their depth; comments skipped; stops on request", () => {
  const text = '{"a": [1, "]"], /* { */ "b": "x\\"y"}';
  const seen: string[] = [];
  scanJson(text, (t) => {
    const what = t.kind === "string" ? text.slice(t.start, t.end) : text[t.start];
    seen.push(`${t.kind} ${what} ${t.depth}`);
  });
  assertEquals(seen, [
    "open { 1",
    'string "a" 1',
    "open [ 2",
    'string "]" 2',
    "close ] 1",
    'string "b" 1',
    'string "x\\"y" 1',
    "close } 0",
  ]);
  const first: number[] = [];
  scanJson("[[[", (t) => {
    first.push(t.depth);
    return t.depth === 2;
  });
  assertEquals(first, [1, 2], "stopped when visit returned true");
  assertEquals(stringEnd('"abc', 0), -1, "an unterminated string");
  assertEquals(stringEnd('"a\\"b"c', 0), 6);
});
