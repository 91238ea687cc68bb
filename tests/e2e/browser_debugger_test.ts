/**
 * The shared debugger sessions in a real Chromium, seen through the extension's log (each attach
 * and detach writes a line): a tab is attached on the first call that needs the debugger and
 * reused by the next ones, reaches cross-site frames through child sessions, and is detached when
 * it closes, when the hub disconnects (attached again once it is back) and after about 30 s idle. The `debugger: off` path and another debugger client are
 * in browser_debugger_setting_test.ts.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest, waitForExtension } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { ok, tabIdOf } from "../helpers/tool_replies.ts";

/** The extension's log lines about the debugger and `tabId`, oldest first. */
async function debuggerLines(e2e: E2E, tabId: number): Promise<string[]> {
  const value = ok(
    await callTool(e2e, "extension_get_logs", { level: "info", limit: 500 }),
    "extension_get_logs",
  );
  const mine = new RegExp(`(Attached the debugger to|Detached the debugger from) tab ${tabId} `);
  return (value.entries as { message: string }[]).map((e) => e.message).filter((m) => mine.test(m));
}

/** Waits until the tab's newest debugger line matches `line`; returns them all. */
async function lastLineIs(e2e: E2E, tabId: number, line: RegExp, timeoutMs?: number) {
  let lines: string[] = [];
  await eventually(
    async () => line.test((lines = await debuggerLines(e2e, tabId)).at(-1) ?? ""),
    () => `tab ${tabId}'s last debugger line is not ${line}: ${JSON.stringify(lines)}`,
    timeoutMs,
  );
  return lines;
}

function readConsole(e2e: E2E, tabId: number) {
  return callTool(e2e, "browser_get_console_logs", { tabId });
}

e2eTest(import.meta.url, "debugger sessions: attach on first use, reuse, detach", {
  config: { permissions: { browser: { permission: "auto" } } },
}, async (t, { e2e }) => {
  await t.step("the first call attaches, the next ones reuse the session", async () => {
    const page = await e2e.open("/console?debugger-reuse=1");
    try {
      const tabId = await tabIdOf(e2e, page);
      assertEquals(await debuggerLines(e2e, tabId), [], "no attach before a call needs it");
      // Tools that do not need the debugger do not attach it.
      ok(await callTool(e2e, "browser_get_page_text", { tabId }), "page text");
      assertEquals(await debuggerLines(e2e, tabId), []);
      const first = ok(await readConsole(e2e, tabId), "first read");
      const lines = await lastLineIs(
        e2e,
        tabId,
        /^Attached the debugger to tab \d+ \(127\.0\.0\.1/,
      );
      assertEquals(lines.length, 1);
      for (let i = 0; i < 3; i++) {
        const again = ok(await readConsole(e2e, tabId), `read ${i + 2}`);
        // V8 replays the same messages each time: the read left Runtime as it found it.
        assertEquals(again.total, first.total);
      }
      assertEquals((await debuggerLines(e2e, tabId)).length, 1, "one attach for four reads");
    } finally {
      await page.close();
    }
  });

  await t.step(
    "a cross-site frame is reached through a child session of the same attach",
    async () => {
      const page = await e2e.open("/frames?debugger-frames=1");
      try {
        const tabId = await tabIdOf(e2e, page);
        ok(await readConsole(e2e, tabId), "read");
        let messages: string[] = [];
        await eventually(
          async () => {
            const value = ok(
              await callTool(e2e, "extension_get_logs", { level: "debug", limit: 500 }),
              "extension_get_logs",
            );
            messages = (value.entries as { message: string }[]).map((e) => e.message);
            return messages.some((m) =>
              m.startsWith(`Reached an out-of-process frame of tab ${tabId}: http://localhost:`) &&
              m.endsWith("/frame-pay")
            );
          },
          () => `no child session for the localhost frame: ${JSON.stringify(messages.slice(-20))}`,
        );
        assertEquals((await debuggerLines(e2e, tabId)).length, 1);
      } finally {
        await page.close();
      }
    },
  );

  await t.step("closing the tab detaches it", async () => {
    const page = await e2e.open("/console?debugger-close=1");
    const tabId = await tabIdOf(e2e, page);
    ok(await readConsole(e2e, tabId), "read");
    await lastLineIs(e2e, tabId, /^Attached/);
    await page.close();
    // Chromium's own onDetach (target_closed) or the tab's removal, whichever comes first.
    await lastLineIs(
      e2e,
      tabId,
      /^Detached the debugger from tab \d+ \((tab_closed|target_closed)\)/,
    );
  });

  await t.step("the hub disconnecting detaches every tab; back, calls attach again", async () => {
    const page = await e2e.open("/console?debugger-hub=1");
    try {
      const tabId = await tabIdOf(e2e, page);
      ok(await readConsole(e2e, tabId), "read");
      await lastLineIs(e2e, tabId, /^Attached/);
      await e2e.restartHub();
      await waitForExtension(e2e);
      await lastLineIs(e2e, tabId, /^Detached the debugger from tab \d+ \(hub_disconnected\)/);
      ok(await readConsole(e2e, tabId), "read after the hub came back");
      const lines = await lastLineIs(e2e, tabId, /^Attached/);
      assertEquals(lines.length, 3);
    } finally {
      await page.close();
    }
  });

  await t.step("an idle tab detaches after about 30 s", async () => {
    const page = await e2e.open("/console?debugger-idle=1");
    try {
      const tabId = await tabIdOf(e2e, page);
      ok(await readConsole(e2e, tabId), "read");
      await lastLineIs(e2e, tabId, /^Attached/);
      const lines = await lastLineIs(
        e2e,
        tabId,
        /^Detached the debugger from tab \d+ \(idle\)/,
        60_000,
      );
      assert(lines.length === 2, JSON.stringify(lines));
      // The page is unharmed and the next call attaches again.
      ok(await readConsole(e2e, tabId), "read after the idle detach");
      await lastLineIs(e2e, tabId, /^Attached/);
    } finally {
      await page.close();
    }
  });
});
