/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../tests/helpers/assert.ts";
import {
  HUB_ERRORS,
  hubError,
  type HubErrorCode,
  isErrorPayload,
  isHubErrorCode,
} from "./errors.ts";

Deno.test("hubError takes the category and retryable flag from HUB_ERRORS", () => {
  assertEquals(hubError("TAB_CLOSED", "gone"), {
    code: "TAB_CLOSED",
    message: "gone",
    category: "unavailable",
    retryable: true,
  });
  assertEquals(hubError("INVALID_ARGUMENTS", "bad", { errors: ["a"] }).details, { errors: ["a"] });
  assert(isErrorPayload(hubError("INTERNAL", "bug")));
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
    assertEquals(HUB_ERRORS[code], { category, retryable: false }, code);
  }
});

Deno.test("docs/http.md lists every code with its category and retryable flag", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/http.md", import.meta.url));
  const section = doc.slice(doc.indexOf("### Error codes"), doc.indexOf("## Endpoints"));
  const rows = [...section.matchAll(/^\| `([A-Z_]+)` *\| `([a-z_]+)` *\| (yes|no) *\|/gm)];
  const listed = Object.fromEntries(
    rows.map((
      [, code, category, retryable],
    ) => [code, { category, retryable: retryable === "yes" }]),
  );
  assertEquals(listed, { ...HUB_ERRORS });
});
