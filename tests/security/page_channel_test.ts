/// <reference lib="deno.ns" />
/**
 * Issue 27, items 4 and 9, as attacks in a real Chromium with the real hub and the test plugin:
 *
 * - a hostile page in the plugin's tab listens to every window message and the old call event,
 *   races to answer every call with a forged result, posts forged progress and log lines, and
 *   knocks on the adapter's door without its secret. The agent still gets the real results (the
 *   audit shows the calls), the page never sees the arguments, and no forged line reaches the hub;
 * - a page no plugin matches has exactly the globals it has in a Chromium without the extension,
 *   a native console.log and no console buffer, and browser_get_console_logs still returns its
 *   console lines.
 */
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { launchChromium } from "../helpers/browser.ts";
import { callTool, type E2E, e2eTest, PLUGIN, readyTabId } from "../helpers/e2e_fixture.ts";
import { api, eventually } from "../helpers/hub_api.ts";
import { ok, tabIdOf } from "../helpers/tool_replies.ts";
import { unmarked } from "../helpers/page_content.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/**
 * The attacker, as a script of the page itself (it runs before the adapter is injected): it
 * records everything it can hear, answers every call id it might guess, forges events for the
 * plugin, and tries the doors it finds without their secret.
 */
function hostilePage() {
  const scope = globalThis as Json;
  const seen: string[] = (scope.__seen = []);
  const record = (what: string, data: unknown) => {
    try {
      seen.push(`${what} ${JSON.stringify(data)}`);
    } catch {
      seen.push(`${what} [not JSON]`);
    }
  };
  addEventListener("message", (e) => record("message", (e as MessageEvent).data), true);
  for (const type of ["hub-bridge-call", "hub-call", "hub-page-event"]) {
    addEventListener(type, (e) => record(type, (e as CustomEvent).detail), true);
  }
  const forged = { FORGED: true };
  const postMessage = (message: unknown, origin: string) => scope.postMessage(message, origin);
  setInterval(() => {
    for (let id = 1; id <= 40; id++) {
      const answer = { type: "hub-call-result", id, result: { ok: true, value: forged } };
      postMessage({ source: "hub-adapter", kind: "result", answer }, "*");
    }
    const entries = [{ level: "error", message: "FORGED log line", timestamp: Date.now() }];
    postMessage({ source: "hub-adapter", kind: "log", plugin: "test-app", entries }, "*");
    postMessage({ source: "hub-adapter", kind: "log", plugin: "other-plugin", entries }, "*");
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      if (!name.startsWith("__hubAdapter:")) continue;
      const door = scope[name];
      record("door", Object.keys(door));
      const call = { tool: "echo", input: { text: "FORGED call" }, dispatchId: "x", settings: {} };
      door.exchange("guess", [{ id: 1, request: call }], 0).then((r: unknown) =>
        record("exchange", r)
      );
      door.exchange("guess", [], 0).then((r: unknown) => record("drain", r));
      door.probe("guess", {}).then((r: unknown) => record("probe", r));
    }
  }, 5);
}

async function hostileTab(e2e: E2E): Promise<{ page: Page; tabId: number }> {
  const page = await e2e.browser.context.newPage();
  await page.addInitScript(hostilePage);
  await page.goto(new URL("/?tab=hostile", e2e.app.url).href);
  return { page, tabId: await readyTabId(e2e, page) };
}

e2eTest(
  import.meta.url,
  "a hostile page can neither read a plugin's calls nor answer them nor forge its events",
  {},
  async (t, { e2e, mcp }) => {
    const { page, tabId } = await hostileTab(e2e);
    const logs: Json[] = [];
    mcp.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n: Json) => void logs.push(n.params),
    );
    const secret = `SECRET-ARG-${crypto.randomUUID()}`;

    await t.step("the agent gets the real results, and the audit shows the calls", async () => {
      for (let i = 0; i < 10; i++) {
        const reply = await callTool(e2e, `${PLUGIN}__echo`, { text: `${secret}-${i}`, tabId });
        assertEquals(reply.status, 200, JSON.stringify(reply.body));
        assertEquals(unmarked(reply.body).structuredContent, { text: `${secret}-${i}` });
      }
      const viaMcp: Json = await mcp.callTool({
        name: `${PLUGIN}__echo`,
        arguments: { text: `${secret}-mcp`, tabId },
      });
      assertEquals(unmarked(viaMcp).structuredContent, { text: `${secret}-mcp` });
      const audit = await api(e2e.hub, "GET", `/audit?tool=${PLUGIN}__echo`);
      assertEquals(audit.status, 200);
      assertEquals(audit.body.length, 11, JSON.stringify(audit.body));
      assert(audit.body.every((e: Json) => e.success === true));
    });

    await t.step("progress comes from the adapter only", async () => {
      const seen: Json[] = [];
      const result: Json = await mcp.callTool(
        { name: `${PLUGIN}__slow`, arguments: { count: 3, delayMs: 100, tabId } },
        undefined,
        { onprogress: (p: Json) => void seen.push(p) },
      );
      assertEquals(unmarked(result).structuredContent, { steps: 3 });
      assertEquals(seen.map((p) => p.message), ["step 1 of 3", "step 2 of 3", "step 3 of 3"]);
    });

    await t.step("the page heard nothing of the calls and its doors stayed shut", async () => {
      // The plugin's own log lines do arrive (the channel works while the page attacks it).
      await callTool(e2e, `${PLUGIN}__log_messages`, { message: "real line", tabId });
      await eventually(
        () => Promise.resolve(logs.some((l) => JSON.stringify(l.data).includes("real line"))),
        () => `the plugin's own log lines never arrived: ${JSON.stringify(logs).slice(0, 500)}`,
      );
      const seen: string[] = await page.evaluate(() => (globalThis as Json).__seen);
      assert(seen.some((s) => s.startsWith("door ")), "the attacker never found the door");
      const leaked = seen.filter((s) => s.includes("SECRET-ARG") || s.includes("apiUrl"));
      assertEquals(leaked, [], "the page saw a call's arguments or settings");
      // Without the secret, a door answers nothing and runs nothing.
      const answers = seen.filter((s) => /^(exchange|drain|probe) /.test(s));
      assert(answers.length > 0);
      assertEquals([...new Set(answers.map((s) => s.split(" ")[1]))], ["null"]);
      assertEquals(logs.filter((l) => JSON.stringify(l).includes("FORGED")), []);
      for (const file of ["server.log", "plugin.log"]) {
        const text = await Deno.readTextFile(join(e2e.configDir, file)).catch(() => "");
        assertEquals(text.includes("FORGED"), false, `a forged line reached ${file}`);
      }
    });
    await page.close();
  },
);

/** A page of its own on another loopback address, which no plugin's patterns match. */
function plainSite() {
  const page = `<!doctype html><title>plain</title><script>
    console.log("plain page says %s", "hello", { n: 1 });
    console.warn("plain warning");
  </script>`;
  return Deno.serve(
    { hostname: "127.0.0.2", port: 0, onListen: () => {} },
    () => new Response(page, { headers: { "content-type": "text/html" } }),
  );
}

/** What a page script can see of the extension on its own globals. */
function globalsOf(page: Page) {
  return page.evaluate(() => ({
    names: Object.getOwnPropertyNames(globalThis).sort(),
    symbols: Object.getOwnPropertySymbols(globalThis).map(String),
    buffer: Symbol.for("hub.consoleBuffer") in globalThis,
    log: console.log.toString(),
  }));
}

e2eTest(
  import.meta.url,
  "a page without plugins has no hub global, and its console is read all the same",
  { config: { permissions: { browser: { permission: "auto" } } } },
  async (t, { e2e }) => {
    const site = plainSite();
    const url = `http://127.0.0.2:${site.addr.port}/`;
    try {
      const page = await e2e.browser.context.newPage();
      await page.goto(url);
      const tabId = await tabIdOf(e2e, page);
      // Let the extension see the tab load (it would inject now if anything matched).
      await new Promise((r) => setTimeout(r, 1_000));

      await t.step("its globals are those of a Chromium without the extension", async () => {
        const plain = await launchChromium();
        let expected;
        try {
          const other = await plain.newPage();
          await other.goto(url);
          expected = await globalsOf(other);
        } finally {
          await plain.close();
        }
        const actual = await globalsOf(page);
        assertEquals(actual, expected);
        assertEquals(actual.log, "function log() { [native code] }");
        assertEquals(actual.buffer, false);
      });

      await t.step("browser_get_console_logs returns its console lines", async () => {
        const value = ok(await callTool(e2e, "browser_get_console_logs", { tabId }), "console");
        assertEquals(value.entries.map((e: Json) => [e.level, e.text]), [
          ["log", 'plain page says hello {"n": 1}'],
          ["warn", "plain warning"],
        ]);
        // Still nothing on the page after the read.
        assertEquals((await globalsOf(page)).buffer, false);
      });
      await page.close();
    } finally {
      await site.shutdown();
    }
  },
);
