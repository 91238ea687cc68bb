/**
 * browser_get_console_logs against a hostile page in a real Chromium: the page logs a Proxy whose
 * `ownKeys` trap never returns, so the formatter the debugger runs on it would loop forever. The
 * read still answers (the stuck formatter call is stopped with Runtime.terminateExecution and the
 * entry keeps the debugger's description, marked), the tab's debugger session stays usable (a
 * second read works the same), and the page runs scripts again afterwards.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { ok, tabIdOf } from "../helpers/tool_replies.ts";

interface ConsoleValue {
  entries: { level: string; text: string }[];
  total: number;
}

const HOSTILE = "console.log('before'); " +
  "console.log(new Proxy({}, { ownKeys() { for (;;) {} } })); " +
  "console.log('after'); 1";

e2eTest(import.meta.url, "a logged Proxy that loops cannot hang the console read", {
  config: { permissions: { browser: { permission: "auto" } } },
}, async (_t, { e2e }) => {
  const page = await e2e.open("/?tab=hostile-console");
  try {
    const tabId = await tabIdOf(e2e, page);
    ok(await callTool(e2e, "browser_execute_script", { tabId, code: HOSTILE }), "log the Proxy");
    for (const round of ["first", "second"]) {
      const value = ok(
        await callTool(e2e, "browser_get_console_logs", { tabId }),
        `${round} read`,
      ) as ConsoleValue;
      const texts = value.entries.map((e) => e.text);
      const at = texts.indexOf("before");
      assert(at >= 0, `${round}: ${JSON.stringify(texts)}`);
      assertMatch(texts[at + 1], /\[could not be formatted in time\]$/, round);
      assertEquals(texts[at + 2], "after", round);
    }
    // The page is not left looping: it runs a script again.
    const again = ok(
      await callTool(e2e, "browser_execute_script", { tabId, code: "6 * 7" }),
      "run",
    );
    assertEquals(again.value, 42);
  } finally {
    await page.close();
  }
});
