/// <reference lib="deno.ns" />
/**
 * How a call's failures become HubErrors: an unusable request body keeps the status REST answers,
 * and anything unexpected is INTERNAL with its message, cut to the one message limit.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import {
  errorPayload,
  HubError,
  MAX_ERROR_MESSAGE_CHARS,
  restStatus,
} from "../../protocol/errors.ts";
import { badRequestError, extensionCallError, toHubError } from "./call_error.ts";

Deno.test("badRequestError: INVALID_ARGUMENTS with the body's own status (413 over the limit)", () => {
  for (const status of [400, 413]) {
    const error = badRequestError({ message: "The body is too large.", status });
    assert(error instanceof HubError);
    assertEquals([error.code, error.message, error.payload.category], [
      "INVALID_ARGUMENTS",
      "The body is too large.",
      "validation",
    ]);
    assertEquals(restStatus(error), status);
  }
});

Deno.test("toHubError: anything unexpected is INTERNAL, its message cut to the one limit", () => {
  const error = toHubError(new Error("x".repeat(MAX_ERROR_MESSAGE_CHARS * 2)));
  assertEquals([error.code, restStatus(error)], ["INTERNAL", 500]);
  assertEquals(error.message.length, MAX_ERROR_MESSAGE_CHARS);
  assert(error.message.startsWith("Internal error: xxx"));
});

Deno.test("extensionCallError: the site and agent-tab refusals keep their 403, a tool's own code is 422", () => {
  for (const code of ["SITE_NOT_ALLOWED", "TAB_NOT_IN_AGENT_GROUP", "TAB_CLOSED"] as const) {
    const error = extensionCallError(errorPayload(code, "m"));
    assertEquals([error.fromTool, restStatus(error)], [false, code === "TAB_CLOSED" ? 503 : 403]);
  }
  const own = extensionCallError(errorPayload("ELEMENT_NOT_FOUND", "m"));
  assertEquals([own.fromTool, restStatus(own)], [true, 422]);
});
