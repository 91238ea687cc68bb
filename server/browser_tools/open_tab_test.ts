import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { parseWithZod } from "./browser_tool.ts";
import { openTab } from "./open_tab.ts";
import { extensionGetLogs } from "./extension_get_logs.ts";
import { closeTab } from "./close_tab.ts";

Deno.test("browser_open_tab opens http(s) URLs and about:blank only", () => {
  const bad = parseWithZod(openTab.input, { url: "file:///etc/passwd" });
  assertEquals(bad.ok, false);
  if (!bad.ok) assertMatch(bad.errors[0], /^url: must be an absolute http\(s\) URL/);
  assertEquals(parseWithZod(openTab.input, { url: "about:blank" }), {
    ok: true,
    input: { url: "about:blank", active: true, waitForLoad: true },
  });
});

Deno.test("browser_close_tab needs a tabId; extension_get_logs bounds its limit", () => {
  assertEquals(parseWithZod(closeTab.input, {}).ok, false);
  assertEquals(parseWithZod(extensionGetLogs.input, {}), {
    ok: true,
    input: { level: "debug", limit: 100 },
  });
  for (const limit of [0, 501, 2.5]) {
    assertEquals(parseWithZod(extensionGetLogs.input, { limit }).ok, false, String(limit));
  }
  assertEquals(parseWithZod(extensionGetLogs.input, { level: "verbose" }).ok, false);
});
