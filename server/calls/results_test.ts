/// <reference lib="deno.ns" />
/** MCP's error mapper (`errorResult`) and a call outcome as its result. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { HubError, hubError } from "../../protocol/errors.ts";
import { errorResult, outcomeResult } from "./results.ts";

Deno.test("errorResult: the code and message as text, the payload in structuredContent.error", () => {
  assertEquals(errorResult(hubError("TAB_CLOSED", "Tab 3 was closed.")), {
    content: [{ type: "text", text: "TAB_CLOSED: Tab 3 was closed." }],
    structuredContent: {
      error: {
        code: "TAB_CLOSED",
        message: "Tab 3 was closed.",
        category: "unavailable",
        retryable: true,
      },
    },
    isError: true,
  });
});

Deno.test("errorResult: details are kept; REST's status and headers stay out", () => {
  const error = hubError("INVALID_ARGUMENTS", "Bad.", { errors: ["a"] }, {
    status: 413,
    headers: { "retry-after": "1" },
  });
  assertEquals(errorResult(error).structuredContent, {
    error: {
      code: "INVALID_ARGUMENTS",
      message: "Bad.",
      category: "validation",
      retryable: false,
      details: { errors: ["a"] },
    },
  });
});

Deno.test("errorResult: a plugin's own error travels as the plugin made it", () => {
  const payload = {
    code: "NOT_LOGGED_IN",
    message: "Sign in.",
    category: "auth",
    retryable: false,
  };
  const result = errorResult(new HubError(payload as never, { fromTool: true }));
  assertEquals(result.structuredContent, { error: payload });
  assertEquals(result.content, [{ type: "text", text: "NOT_LOGGED_IN: Sign in." }]);
});

Deno.test("outcomeResult: a failed outcome is its errorResult, a value its success", () => {
  const error = hubError("TIMEOUT", "Too slow.");
  assertEquals(outcomeResult({ ok: false, error }), errorResult(error));
  assertEquals(outcomeResult({ ok: true, value: { a: 1 } }), {
    content: [{ type: "text", text: '{"a":1}' }],
    structuredContent: { a: 1 },
  });
});
