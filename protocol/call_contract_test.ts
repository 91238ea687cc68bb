/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import * as z from "zod";
import {
  checkInput,
  isLogLevel,
  LOG_LEVELS,
  MAX_PAGE_RESULT_CHARS,
  MAX_RESULT_BYTES,
  pageTooLargeWords,
  readCallResult,
  replyTooLargeWords,
  RESULT_ENVELOPE_BYTES,
  resultSizeError,
  splitToolName,
  toolName,
} from "./call_contract.ts";
import { MAX_MESSAGE_BYTES } from "./limits.ts";
import { MAX_FRAME_BYTES } from "./rpc.ts";

Deno.test("toolName and splitToolName round trip", () => {
  const names = [["jira", "search", "jira__search"], ["my-app", "get_issue", "my-app__get_issue"]];
  for (const [plugin, tool, full] of names) {
    assertEquals(toolName(plugin, tool), full);
    assertEquals(splitToolName(full), { plugin, tool });
  }
});

Deno.test("splitToolName splits at the first separator; a tool part may hold '__'", () => {
  assertEquals(splitToolName("app__get__thing"), { plugin: "app", tool: "get__thing" });
  assertEquals(splitToolName(toolName("app", "x__y")), { plugin: "app", tool: "x__y" });
  assertEquals(splitToolName("app__"), { plugin: "app", tool: "" });
});

Deno.test("splitToolName: no plugin part is undefined (built-in browser tools)", () => {
  assertEquals(splitToolName("browser_list_tabs"), undefined);
  assertEquals(splitToolName("__tool"), undefined);
  assertEquals(splitToolName(""), undefined);
});

Deno.test("the result limits derive from the message limit", () => {
  assertEquals(MAX_RESULT_BYTES, MAX_MESSAGE_BYTES - RESULT_ENVELOPE_BYTES);
  assert(MAX_RESULT_BYTES < MAX_FRAME_BYTES);
  // The page's early check: half the message limit in whole MB, the 5 MB the SDK always had.
  assertEquals(MAX_PAGE_RESULT_CHARS, 5_000_000);
  assert(MAX_PAGE_RESULT_CHARS * 2 <= MAX_RESULT_BYTES);
});

Deno.test("resultSizeError: none at the limit, RESULT_TOO_LARGE over it, in each side's words", () => {
  assertEquals(resultSizeError(MAX_RESULT_BYTES, MAX_RESULT_BYTES, replyTooLargeWords), undefined);
  const error = resultSizeError(12_345_678, MAX_RESULT_BYTES, replyTooLargeWords)!;
  assertEquals([error.code, error.category, error.retryable], [
    "RESULT_TOO_LARGE",
    "validation",
    false,
  ]);
  // The texts agents read, word for word as before the call contract.
  assertEquals(
    error.message,
    "The result is 12.3 MB; results are limited to 10 MB. Ask for less (a part of the page, fewer items).",
  );
  const page = resultSizeError(5_100_012, MAX_PAGE_RESULT_CHARS, pageTooLargeWords("big"))!;
  assertEquals(
    page.message,
    'Tool "big" returned 5.1 MB of JSON; the limit is 5 MB. Return less (page through results, or summarize).',
  );
  assertEquals(
    resultSizeError(MAX_PAGE_RESULT_CHARS, MAX_PAGE_RESULT_CHARS, pageTooLargeWords("big")),
    undefined,
  );
});

Deno.test("readCallResult keeps only the contract's keys", () => {
  assertEquals(readCallResult({ ok: true, value: { a: 1 }, tabId: 3, extra: 1 }), {
    result: { ok: true, value: { a: 1 }, tabId: 3 },
  });
  // null is a value; a success with no value key at all is refused (below).
  assertEquals(readCallResult({ ok: true, value: null }), { result: { ok: true, value: null } });
  const error = { code: "X", message: "m", category: "internal", retryable: false, more: 1 };
  assertEquals(readCallResult({ ok: false, error }), {
    result: {
      ok: false,
      error: { code: "X", message: "m", category: "internal", retryable: false },
    },
  });
  const detailed = { ...error, details: { why: 1 } };
  assertEquals(readCallResult({ ok: false, error: detailed }), {
    result: {
      ok: false,
      error: {
        code: "X",
        message: "m",
        category: "internal",
        retryable: false,
        details: { why: 1 },
      },
    },
  });
});

Deno.test("readCallResult rejects malformed shapes, saying what is wrong", () => {
  const bad: [unknown, RegExp][] = [
    [null, /expected an object/],
    ["ok", /expected an object/],
    [[{ ok: true }], /expected an object/],
    [{ ok: "yes" }, /"ok" must be true or false, got "yes"/],
    [{ value: 1 }, /"ok" must be true or false/],
    [{ ok: true, tabId: 1.5 }, /"tabId" must be an integer/],
    [{ ok: true, tabId: "3" }, /"tabId" must be an integer/],
    [{ ok: true, value: 1, tabId: 2 ** 60 }, /"tabId" must be an integer/],
    [{ ok: true, value: 1, tabId: -0.5 }, /"tabId" must be an integer/],
    [{ ok: true }, /"value" is missing/],
    [{ ok: true, tabId: 3 }, /"value" is missing/],
    [{ ok: false }, /"error" must be/],
    [{ ok: false, error: "boom" }, /"error" must be/],
    [
      { ok: false, error: { code: "X", message: "m", category: "nope", retryable: false } },
      /error/,
    ],
    [
      { ok: false, error: { code: "", message: "m", category: "internal", retryable: false } },
      /error/,
    ],
    [{ ok: false, error: { code: "X", message: "m", category: "internal" } }, /error/],
  ];
  for (const [raw, why] of bad) {
    const read = readCallResult(raw);
    if (!("problem" in read)) throw new Error(`read ${JSON.stringify(raw)}`);
    assertMatch(read.problem, why);
  }
  const long = readCallResult({ ok: "x".repeat(1_000) });
  assert("problem" in long && long.problem.length < 300, "the problem names a long value cut");
});

Deno.test("readCallResult never throws on values JSON cannot write", () => {
  const cyclic: Record<string, unknown> = { code: "X" };
  cyclic.self = cyclic;
  const hostile: [unknown, RegExp][] = [
    [{ ok: false, error: cyclic }, /"error" must be .*not JSON/],
    [{ ok: 1n }, /"ok" must be true or false, got a value of type bigint/],
    [{ ok: true, value: 1, tabId: 5n }, /"tabId" must be an integer, got a value of type bigint/],
    [{ ok: false, error: { code: "X", message: 1n } }, /"error" must be/],
  ];
  for (const [raw, why] of hostile) {
    const read = readCallResult(raw);
    if (!("problem" in read)) throw new Error(`read ${String(raw)}`);
    assertMatch(read.problem, why);
  }
  // A success's value is handed on as it is, whatever it holds.
  const big = { ok: true, value: 5n };
  assertEquals(readCallResult(big), { result: { ok: true, value: 5n } });
});

Deno.test("log levels, lowest first", () => {
  assertEquals([...LOG_LEVELS], ["debug", "info", "warn", "error"]);
  assert(isLogLevel("warn"));
  assert(!isLogLevel("silent"));
  assert(!isLogLevel(undefined));
});

Deno.test("checkInput: the parsed input with defaults, or every problem as a path line", () => {
  const schema = z.object({ a: z.number(), b: z.string().default("x") });
  assertEquals(checkInput(schema, { a: 1 }), { ok: true, input: { a: 1, b: "x" } });
  const bad = checkInput(schema, { a: "1", b: 2 });
  assert(!bad.ok);
  assertEquals(bad.problems.length, 2);
  assertMatch(bad.problems[0], /^a: /);
  assertMatch(bad.problems[1], /^b: /);
  const notObject = checkInput(schema, 3);
  assert(!notObject.ok);
  assertMatch(notObject.problems[0], /^input: /);
});
