/**
 * Trusted input in real Chromium (`deno task bench` runs this): the end-to-end fixture's hub
 * (`hub start`), Debian Chromium with the installed extension and the test web app's
 * `/pointer/page` (tests/fixtures/web_app/pointer_pages.ts). Each call goes over REST, one at a
 * time. Rows:
 *
 * - browser_click_element on `#strict` with real mouse events (`input: "trusted"`: the kit finds
 *   the point, the debugger clicks, the kit reads the element after) against the same click with
 *   `hub config set debugger off` (`input: "synthetic"`, the DOM click), p50 / p95, and their
 *   ratio (target: trusted p50 ≤ 2× synthetic p50). `#strict` ignores untrusted clicks, so its
 *   page does work for the trusted click only;
 * - the same pair on `/pointer/even`'s button, whose click handler does the same work either way:
 *   the comparison on equal page work;
 * - the first attach to a tab: the first trusted click in a fresh tab (its kit already injected
 *   by a browser_query_elements call) less the steady trusted click's p50, over several tabs,
 *   each opened and closed with no other tab attached (the rows before switched the debugger off
 *   and closed their tabs), so each attach pays the sessions' settle wait for Chromium's bar
 *   (decision 065) (target ≤ 150 ms).
 *
 * The bench reports; it never fails on a number.
 */
import { measure, percentiles } from "./_stats.ts";
import { browserBenchGate } from "./_browser_gate.ts";
import { ms, type Row, row, took, value } from "./_browser_rows.ts";
import { type E2E, startE2E, waitForExtension } from "../tests/helpers/e2e_fixture.ts";
import { runHub } from "../tests/helpers/hub_process.ts";
import { tabIdOf } from "../tests/helpers/tool_replies.ts";

const CLICKS = 200;
const WARMUP = 10;
const FRESH_TABS = 8;
const PAGE = "/pointer/page";
const EVEN_PAGE = "/pointer/even";

browserBenchGate("trusted input");

/** Trusted and synthetic clicks on `/pointer/even`'s button: both p50s and their ratio. */
async function evenPair(e2e: E2E): Promise<string> {
  const page = await e2e.open(EVEN_PAGE);
  const tabId = await tabIdOf(e2e, page);
  const click = () => value(e2e, "browser_click_element", { tabId, selector: "#even" });
  const trusted = percentiles(await measure(() => click(), CLICKS, WARMUP));
  await setDebugger(e2e, "off", () => click());
  let synthetic;
  try {
    synthetic = percentiles(await measure(() => click(), CLICKS, WARMUP));
  } finally {
    await setDebugger(e2e, "auto", () => click());
    await page.close();
  }
  const ratio = (trusted.p50 / synthetic.p50).toFixed(2);
  return `${ms(trusted.p50)} / ${ms(synthetic.p50)} = ${ratio}×`;
}

/** Sets config `debugger` with the real CLI and waits until a click answers with its `input`. */
async function setDebugger(
  e2e: E2E,
  mode: "auto" | "off",
  click: () => Promise<{ input: string }>,
): Promise<void> {
  const args = ["config", "set", "debugger", mode, "--port", String(e2e.hub.port)];
  const set = await runHub(args, { configDir: e2e.configDir });
  if (set.code !== 0) throw new Error(`hub config set debugger ${mode}: ${set.stderr}`);
  const wanted = mode === "auto" ? "trusted" : "synthetic";
  for (let i = 0; i < 100; i++) {
    if ((await click()).input === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`clicks never answered input ${wanted}`);
}

const e2e = await startE2E({
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
});
try {
  await waitForExtension(e2e);
  const page = await e2e.open(PAGE);
  const tabId = await tabIdOf(e2e, page);
  const click = (tab = tabId) =>
    value(e2e, "browser_click_element", { tabId: tab, selector: "#strict" });

  let trusted: ReturnType<typeof percentiles> | undefined;
  let synthetic: ReturnType<typeof percentiles> | undefined;
  const rows: Row[] = [
    await row("browser_click_element, trusted: p50 / p95", "", async () => {
      trusted = percentiles(await measure(() => click(), CLICKS, WARMUP));
      return `${ms(trusted.p50)} / ${ms(trusted.p95)}`;
    }),
    await row("browser_click_element, synthetic (debugger off): p50 / p95", "", async () => {
      await setDebugger(e2e, "off", () => click());
      try {
        synthetic = percentiles(await measure(() => click(), CLICKS, WARMUP));
      } finally {
        await setDebugger(e2e, "auto", () => click());
      }
      return `${ms(synthetic.p50)} / ${ms(synthetic.p95)}`;
    }),
    await row("trusted click p50 ÷ synthetic click p50", "≤ 2×", () => {
      if (!trusted || !synthetic) throw new Error("a click row failed");
      return Promise.resolve(`${(trusted.p50 / synthetic.p50).toFixed(2)}×`);
    }),
    await row(
      `same pair on ${EVEN_PAGE} (equal page work): p50 trusted / synthetic`,
      "≤ 2×",
      () => evenPair(e2e),
    ),
    await row(
      `first attach to a tab (first trusted click − steady p50), over ${FRESH_TABS} tabs`,
      "≤ 150 ms",
      async () => {
        if (!trusted) throw new Error("the trusted row failed");
        const extra: number[] = [];
        for (let i = 0; i < FRESH_TABS; i++) {
          const fresh = await e2e.open(`${PAGE}?fresh=${i}`);
          const freshTab = await tabIdOf(e2e, fresh);
          await value(e2e, "browser_query_elements", { tabId: freshTab, selector: "#strict" });
          extra.push((await took(() => click(freshTab))) - trusted.p50);
          await fresh.close();
        }
        const { p50, p95 } = percentiles(extra);
        return `p50 ${ms(p50)}, p95 ${ms(p95)}`;
      },
    ),
  ];
  console.log(`\ntrusted input on ${PAGE}, REST, sequential`);
  console.log("\n| metric | measured | target |");
  console.log("|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  await e2e.close();
}
