/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../tests/helpers/assert.ts";
import type { ErrorCategory } from "../protocol/errors.ts";
import { toErrorPayload, ToolError } from "./tool_error.ts";

Deno.test("a ToolError without options is an internal, non-retryable TOOL_ERROR", () => {
  const error = new ToolError("boom");
  assert(error instanceof Error);
  assertEquals([error.name, error.code, error.category, error.retryable, error.message], [
    "ToolError",
    "TOOL_ERROR",
    "internal",
    false,
    "boom",
  ]);
});

for (const category of ["timeout", "unavailable", "rate_limit"] as const) {
  Deno.test(`a ${category} ToolError is retryable by default`, () => {
    assertEquals(new ToolError("x", { category }).retryable, true);
  });
}

for (const category of ["validation", "not_found", "auth", "permission", "internal"] as const) {
  Deno.test(`a ${category} ToolError is not retryable by default`, () => {
    assertEquals(new ToolError("x", { category }).retryable, false);
  });
}

Deno.test("an explicit retryable flag overrides the category default", () => {
  assertEquals(new ToolError("x", { category: "timeout", retryable: false }).retryable, false);
  assertEquals(new ToolError("x", { category: "auth", retryable: true }).retryable, true);
});

Deno.test("an invalid category becomes internal", () => {
  const error = new ToolError("x", { category: "bogus" as ErrorCategory });
  assertEquals(error.category, "internal");
});

Deno.test("the static helpers set the category and default code", () => {
  const cases: [ToolError, string, ErrorCategory][] = [
    [ToolError.validation("m"), "INVALID_INPUT", "validation"],
    [ToolError.notFound("m"), "NOT_FOUND", "not_found"],
    [ToolError.auth("m"), "NOT_AUTHENTICATED", "auth"],
    [ToolError.unavailable("m"), "UNAVAILABLE", "unavailable"],
    [ToolError.timeout("m"), "TIMEOUT", "timeout"],
    [ToolError.rateLimit("m"), "RATE_LIMITED", "rate_limit"],
  ];
  for (const [error, code, category] of cases) {
    assertEquals([error.code, error.category], [code, category]);
  }
  assertEquals(ToolError.auth("m", "NOT_LOGGED_IN").code, "NOT_LOGGED_IN");
});

Deno.test("toPayload includes details only when set", () => {
  assertEquals(new ToolError("m", { code: "A" }).toPayload(), {
    code: "A",
    message: "m",
    category: "internal",
    retryable: false,
  });
  assertEquals(new ToolError("m", { details: { id: 1 } }).toPayload().details, { id: 1 });
});

Deno.test("toErrorPayload keeps a ToolError's fields", () => {
  const error = new ToolError("Log in first", {
    code: "NOT_LOGGED_IN",
    category: "auth",
    details: { url: "/login" },
  });
  assertEquals(toErrorPayload(error), {
    code: "NOT_LOGGED_IN",
    message: "Log in first",
    category: "auth",
    retryable: false,
    details: { url: "/login" },
  });
});

Deno.test("toErrorPayload keeps the fields of a ToolError from another SDK copy", () => {
  const foreign = {
    name: "ToolError",
    code: "QUOTA",
    message: "Too many",
    category: "rate_limit",
    retryable: true,
  };
  assertEquals(toErrorPayload(foreign), {
    code: "QUOTA",
    message: "Too many",
    category: "rate_limit",
    retryable: true,
  });
});

// Documents a finding: the foreign branch of toErrorPayload drops `details`.
Deno.test("toErrorPayload keeps the details of a ToolError from another SDK copy", () => {
  const foreign = {
    name: "ToolError",
    code: "QUOTA",
    message: "Too many",
    category: "rate_limit",
    retryable: true,
    details: { resetIn: 60 },
  };
  assertEquals(toErrorPayload(foreign).details, { resetIn: 60 });
});

Deno.test("a ToolError-shaped object with an unknown category is treated as internal", () => {
  const foreign = { name: "ToolError", code: "X", message: "m", category: "weird" };
  assertEquals(toErrorPayload(foreign).code, "TOOL_FAILED");
  assertEquals(toErrorPayload(foreign).category, "internal");
});

Deno.test("toErrorPayload turns a plain Error into an internal TOOL_FAILED", () => {
  assertEquals(toErrorPayload(new TypeError("x is undefined")), {
    code: "TOOL_FAILED",
    message: "x is undefined",
    category: "internal",
    retryable: false,
  });
});

Deno.test("toErrorPayload turns a thrown string into its message, with a custom fallback code", () => {
  assertEquals(toErrorPayload("nope", "ADAPTER_ERROR"), {
    code: "ADAPTER_ERROR",
    message: "nope",
    category: "internal",
    retryable: false,
  });
});

Deno.test("toErrorPayload copes with undefined and null", () => {
  assertEquals(toErrorPayload(undefined).message, "undefined");
  assertEquals(toErrorPayload(null).message, "null");
});
