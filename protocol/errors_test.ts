/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../tests/helpers/assert.ts";
import {
  CALL_FAILURES,
  errorBody,
  errorPayload,
  HUB_ERRORS,
  HubError,
  hubError,
  type HubErrorCode,
  isErrorPayload,
  isHubErrorCode,
  MAX_ERROR_MESSAGE_CHARS,
  restStatus,
  TOOL_FAILURE_STATUS,
} from "./errors.ts";

Deno.test("errorPayload takes the category and retryable flag from HUB_ERRORS", () => {
  assertEquals(errorPayload("TAB_CLOSED", "gone"), {
    code: "TAB_CLOSED",
    message: "gone",
    category: "unavailable",
    retryable: true,
  });
  assertEquals(errorPayload("INVALID_ARGUMENTS", "bad", { errors: ["a"] }).details, {
    errors: ["a"],
  });
  assert(isErrorPayload(errorPayload("INTERNAL", "bug")));
  const unknown = errorPayload("SOMETHING_NEW" as HubErrorCode, "a newer page kit's code");
  assertEquals([unknown.code, unknown.category, unknown.retryable], [
    "SOMETHING_NEW",
    "internal",
    false,
  ]);
});

Deno.test("hubError is a throw-ready HubError carrying that payload, its message cut", () => {
  const error = hubError("INVALID_ARGUMENTS", "bad", { errors: ["a"] });
  assert(error instanceof HubError && error instanceof Error);
  assertEquals(error.name, "HubError");
  assertEquals([error.code, error.message], ["INVALID_ARGUMENTS", "bad"]);
  assertEquals(error.payload, errorPayload("INVALID_ARGUMENTS", "bad", { errors: ["a"] }));
  assertEquals([error.fromTool, error.status, error.headers], [false, undefined, {}]);
  const long = hubError("INTERNAL", "x".repeat(MAX_ERROR_MESSAGE_CHARS * 2));
  assertEquals(long.message.length, MAX_ERROR_MESSAGE_CHARS);
  assertEquals(long.payload.message, long.message);
});

Deno.test("one message limit of 4,000 characters: a long list of problems stays whole", () => {
  assertEquals(MAX_ERROR_MESSAGE_CHARS, 4_000);
  const problems = Array.from(
    { length: 10 },
    (_, i) => `"key${i}" is reserved: ${"x".repeat(250)}`,
  );
  const message = `${problems.join("; ")}; and 3 more problems`;
  assert(message.length > 2_000 && message.length < MAX_ERROR_MESSAGE_CHARS);
  assertEquals(hubError("INVALID_SETTINGS", message).message, message);
  const cut = hubError("INVALID_SETTINGS", "y".repeat(MAX_ERROR_MESSAGE_CHARS + 1)).message;
  assertEquals(cut.length, MAX_ERROR_MESSAGE_CHARS);
  assert(cut.endsWith("…"));
});

Deno.test("every code has one REST status; a code only a tool reports is 422", () => {
  for (const [code, row] of Object.entries(HUB_ERRORS)) {
    assert(Number.isInteger(row.status) && row.status >= 400 && row.status < 600, code);
    assertEquals(restStatus(hubError(code as HubErrorCode, "m")), row.status, code);
  }
  for (const code of ["RESULT_TOO_LARGE", "PAGE_NOT_SCRIPTABLE", "SCRIPT_ERROR", "TOOL_FAILED"]) {
    assertEquals(HUB_ERRORS[code as HubErrorCode].status, TOOL_FAILURE_STATUS, code);
  }
  for (const [code, row] of Object.entries(CALL_FAILURES)) {
    assert((row.status as number) !== TOOL_FAILURE_STATUS, code);
  }
});

Deno.test("restStatus: an explicit status first, then the tool's failure (422), then the row", () => {
  assertEquals(restStatus(hubError("INVALID_ARGUMENTS", "big", undefined, { status: 413 })), 413);
  assertEquals(restStatus(hubError("PLUGIN_NOT_FOUND", "m", undefined, { fromTool: true })), 422);
  assertEquals(restStatus(hubError("PLUGIN_NOT_FOUND", "m")), 404);
  assertEquals(restStatus(hubError("CANCELLED", "m")), 499);
  const plugins = { code: "NOT_LOGGED_IN", message: "m", category: "auth", retryable: false };
  assertEquals(restStatus(new HubError(plugins as never, { fromTool: true })), 422);
  assertEquals(restStatus(new HubError(plugins as never)), 500, "an unknown code the hub threw");
});

Deno.test("isHubErrorCode knows the table's codes and nothing inherited", () => {
  assert(isHubErrorCode("ELEMENT_NOT_FOUND"));
  for (const odd of ["NOT_LOGGED_IN", "toString", "__proto__", 1, undefined]) {
    assertEquals(isHubErrorCode(odd), false, String(odd));
  }
});

Deno.test("the browser tools', the DOM kit's and the SDK's codes keep their categories", () => {
  const expected: [HubErrorCode, string][] = [
    ["NOT_A_WEB_PAGE", "validation"],
    ["WINDOW_NOT_FOUND", "not_found"],
    ["NO_HISTORY", "validation"],
    ["SCREENSHOT_TOO_LARGE", "validation"],
    ["SCRIPT_ERROR", "validation"],
    ["SCRIPT_BLOCKED", "permission"],
    ["INVALID_SELECTOR", "validation"],
    ["ELEMENT_NOT_FOUND", "not_found"],
    ["WAIT_TIMEOUT", "timeout"],
    ["NOT_EDITABLE", "validation"],
    ["NOT_A_SELECT", "validation"],
    ["OPTION_NOT_FOUND", "not_found"],
    ["OPTION_DISABLED", "validation"],
    ["INVALID_KEY", "validation"],
    ["PAGE_ERROR", "internal"],
    ["UNKNOWN_OPERATION", "internal"],
    ["INVALID_OUTPUT", "internal"],
    ["TOOL_FAILED", "internal"],
    ["RESULT_TOO_LARGE", "validation"],
  ];
  for (const [code, category] of expected) {
    assertEquals(HUB_ERRORS[code], { category, retryable: false, status: 422 }, code);
  }
});

Deno.test("docs/http.md lists every code with its category, retryable flag and status", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/http.md", import.meta.url));
  const section = doc.slice(doc.indexOf("### Error codes"), doc.indexOf("## Endpoints"));
  const rows = [
    ...section.matchAll(/^\| `([A-Z_]+)` *\| `([a-z_]+)` *\| (yes|no) *\| (\d{3})\b/gm),
  ];
  const listed = Object.fromEntries(
    rows.map((
      [, code, category, retryable, status],
    ) => [code, { category, retryable: retryable === "yes", status: Number(status) }]),
  );
  assertEquals(listed, { ...HUB_ERRORS });
});

Deno.test("errorBody: the one REST error body, code and message only", () => {
  const error = hubError("SERVER_RESTARTING", "restarting", { x: 1 }, {
    headers: { "retry-after": "1" },
  });
  assertEquals(errorBody(error), { error: { code: "SERVER_RESTARTING", message: "restarting" } });
  assertEquals(HUB_ERRORS.SERVER_RESTARTING.status, 503);
  assertEquals(HUB_ERRORS.WRONG_PORT.status, 403);
});
