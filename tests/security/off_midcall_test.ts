/**
 * Attack (or accident): a plugin is turned off while one of its calls runs. In real Chromium with
 * the real hub and extension, the running call must not bring the adapter back: the call fails
 * (it is not answered as a success after a second run), the tool's handler ran once in the page
 * (its own timers are counted there), no new adapter door was put into the page, the extension
 * keeps no door for the plugin, and the audit log records the call as a failure.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { api, eventually } from "../helpers/hub_api.ts";
import { runHub } from "../helpers/hub_process.ts";
import { callTool, e2eTest, PLUGIN, readyTabId } from "../helpers/e2e_fixture.ts";
import type { AuditEntry } from "../../protocol/audit.ts";

/** The slow tool's steps: long enough that turning the plugin off lands while it runs. */
const STEPS = 6;
/** Its delay per step; no other timer of the page uses this number. */
const DELAY_MS = 2_497;
const TOOL = `${PLUGIN}__slow`;

/** Counts the page's timers of `DELAY_MS` (one per step the handler starts) in `__slowSteps`. */
const COUNT_STEPS = `(() => {
  const setTimer = window.setTimeout;
  window.__slowSteps = 0;
  window.setTimeout = function (f, ms, ...rest) {
    if (ms === ${DELAY_MS}) window.__slowSteps++;
    return setTimer.call(this, f, ms, ...rest);
  };
})()`;

const steps = async (page: Page) => Number(await page.evaluate("window.__slowSteps"));
const doorKeys = (page: Page) =>
  page.evaluate(
    `Object.getOwnPropertyNames(window).filter((k) => k.startsWith("__hubAdapter:${PLUGIN}:"))`,
  ) as Promise<string[]>;

e2eTest(
  import.meta.url,
  "a plugin turned off mid-call: the call fails, its handler ran once, no adapter comes back",
  {},
  async (_t, { e2e }) => {
    const page = await e2e.open("/");
    const tabId = await readyTabId(e2e, page);
    await page.evaluate(COUNT_STEPS);
    const before = await doorKeys(page);
    assertEquals(before.length, 1, `one door before the call: ${before}`);

    const reply = callTool(e2e, TOOL, { count: STEPS, delayMs: DELAY_MS });
    await eventually(async () => await steps(page) >= 1, () => "the slow tool never started");
    const off = await runHub(["config", "set", `plugin-permission.${PLUGIN}`, "off"], {
      configDir: e2e.configDir,
      env: { HUB_PORT: String(e2e.hub.port) },
    });
    assertEquals(off.code, 0, `${off.stdout}\n${off.stderr}`);
    const answer = await reply;
    const body = JSON.stringify(answer.body);
    assert(
      !(answer.status === 200 && (answer.body as { isError?: boolean })?.isError !== true),
      `the call must fail, got ${answer.status} ${body}`,
    );
    // It fails as a call whose adapter closed under it, which is never sent again.
    assert(/ADAPTER_ERROR.*closed while the call ran.*not run again/s.test(body), body);

    // The handler runs on in the page (nothing can stop it there) but never starts over: watch
    // it finish and a while past that, long enough for a re-injected run to have begun.
    await eventually(async () => await steps(page) >= STEPS, () => "the handler never finished");
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      const seen = await steps(page);
      assert(seen <= STEPS, `the handler ran again: ${seen} steps started for ${STEPS}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(await doorKeys(page), before, "no new adapter door was put into the page");

    const worker = await e2e.browser.serviceWorker();
    const kept = await worker.evaluate(
      `chrome.storage.session.get("adapterDoors").then((s) => Object.keys(s.adapterDoors ?? {}))`,
    ) as string[];
    assert(!kept.includes(`${tabId}\n${PLUGIN}`), `the extension still keeps a door: ${kept}`);

    await eventually(async () => {
      const entries = (await api(e2e.hub, "GET", `/audit?tool=${TOOL}`)).body as AuditEntry[];
      return entries.length === 1 && entries[0].success === false;
    }, () => "the audit log has no failed entry for the call");
  },
);
