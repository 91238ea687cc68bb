/**
 * What site permissions cost a browser call in real Chromium (`deno task bench` runs it as a row
 * of the performance table, bench/perf_table.ts; alone: `deno run -A bench/browser_site_gate.ts`):
 * the end-to-end fixture's hub (`hub start`), Debian Chromium with the installed extension, and
 * the test web app's home page (a small page). Each call is browser_get_page_text over REST, one
 * at a time, p50 / p95:
 *
 * - with no site rule (`defaultSitePermission: "auto"` decides);
 * - with 500 rules (the most `sitePermissions` may hold: hosts, `*.` patterns, hosts with ports and
 *   origins, none of them the page's, and `localhost` off), written to config.json on the running
 *   hub and sent to the extension by `POST /reload` (as `hub config set` does); a call in a
 *   `localhost` tab refused with SITE_NOT_ALLOWED shows they arrived.
 *
 * The two run in alternating rounds, so both see the same browser state and load. Target: 500 rules
 * cost nothing measurable (within the run's noise). The bench reports; it never fails on a number.
 */
import { join } from "node:path";
import { measure, percentiles } from "./_stats.ts";
import { browserBenchGate } from "./_browser_gate.ts";

const ROUNDS = 3; // two /reload calls a round; /reload allows 10 a minute
const PER_ROUND = 150;
const WARMUP = 10;
const RULES = 500;

interface Hub {
  url: string;
  secret: string;
}
interface FixtureE2E {
  configDir: string;
  hub: Hub;
  app: { url: string; origin: string };
  open(path: string): Promise<unknown>;
  close(): Promise<void>;
}

/** 499 rules that do not match the test web app on 127.0.0.1, and `localhost` off. */
export function manyRules(): Record<string, string> {
  const rules: Record<string, string> = { localhost: "off" };
  const kinds = [
    (i: number) => `site${i}.example.com`,
    (i: number) => `*.corp${i}.example.org`,
    (i: number) => `10.0.${i % 250}.${(i * 7) % 250}:${8000 + i}`,
    (i: number) => `https://app${i}.example.net:8443`,
  ];
  const permissions = ["off", "ask", "auto"];
  for (let i = 0; Object.keys(rules).length < RULES; i++) {
    rules[kinds[i % kinds.length](i)] = permissions[i % permissions.length];
  }
  return rules;
}

/** A tool call over REST: its HTTP status and body. */
async function rest(hub: Hub, tool: string, args: Record<string, unknown>) {
  const response = await fetch(`${hub.url}/tools/${tool}/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ arguments: args }),
  });
  return { status: response.status, body: await response.json() };
}

async function tabIdAt(hub: Hub, url: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const { body } = await rest(hub, "browser_list_tabs", {});
    const tab = body.structuredContent?.tabs?.find((t: { url: string }) => t.url === url);
    if (tab) return tab.tabId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no tab at ${url}`);
}

/** Writes the rules into config.json and waits until a call in the `localhost` tab shows them. */
async function useRules(e2e: FixtureE2E, rules: Record<string, string>, sentinel: number) {
  const file = join(e2e.configDir, "config.json");
  const config = JSON.parse(await Deno.readTextFile(file));
  await Deno.writeTextFile(file, JSON.stringify({ ...config, sitePermissions: rules }, null, 2));
  // What `hub config set` does after writing: the hub sends the rules to the extension.
  const reload = await fetch(`${e2e.hub.url}/reload`, {
    method: "POST",
    headers: { authorization: `Bearer ${e2e.hub.secret}` },
  });
  await reload.body?.cancel();
  const refused = "localhost" in rules;
  for (let i = 0; i < 200; i++) {
    const { body } = await rest(e2e.hub, "browser_get_page_text", { tabId: sentinel });
    const code = body.structuredContent?.error?.code;
    if (refused ? code === "SITE_NOT_ALLOWED" : !body.isError) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the rules never reached the extension (${Object.keys(rules).length} rules)`);
}

export interface SiteGateResult {
  none: { p50: number; p95: number };
  many: { p50: number; p95: number };
}

/**
 * Measures the calls on `root`'s own end-to-end fixture (this checkout's unless told), or says
 * why it could not.
 */
export async function siteGateRows(root = join(import.meta.dirname!, "..")) {
  const fixture = await import(join(root, "tests/helpers/e2e_fixture.ts"));
  const e2e: FixtureE2E = await fixture.startE2E({
    config: {
      permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
      sitePermissions: {},
      defaultSitePermission: "auto",
    },
  });
  try {
    await fixture.waitForExtension(e2e);
    const pageUrl = new URL("/?tab=site-gate", e2e.app.url).href;
    const sentinelUrl = pageUrl.replace("127.0.0.1", "localhost").replace("site-gate", "sentinel");
    await e2e.open(pageUrl);
    await e2e.open(sentinelUrl);
    const tabId = await tabIdAt(e2e.hub, pageUrl);
    const sentinel = await tabIdAt(e2e.hub, sentinelUrl);
    const read = async () => {
      const { status, body } = await rest(e2e.hub, "browser_get_page_text", { tabId });
      if (status !== 200 || body.isError) {
        throw new Error(`page text failed: ${JSON.stringify(body).slice(0, 300)}`);
      }
    };
    const none: number[] = [];
    const many: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await useRules(e2e, {}, sentinel);
      none.push(...await measure(read, PER_ROUND, WARMUP));
      await useRules(e2e, manyRules(), sentinel);
      many.push(...await measure(read, PER_ROUND, WARMUP));
    }
    return { none: percentiles(none), many: percentiles(many) } satisfies SiteGateResult;
  } finally {
    await e2e.close();
  }
}

if (import.meta.main) {
  browserBenchGate("browser_site_gate");
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  const { none, many } = await siteGateRows();
  console.log(
    `\nbrowser_get_page_text on a small page, REST, sequential, ${ROUNDS} alternating rounds ` +
      `of ${PER_ROUND} calls`,
  );
  console.log("\n| site rules | p50 | p95 |");
  console.log("|---|---|---|");
  console.log(`| none (default auto) | ${ms(none.p50)} | ${ms(none.p95)} |`);
  console.log(`| ${RULES} rules | ${ms(many.p50)} | ${ms(many.p95)} |`);
  console.log(`\n500 rules / none, p50: ${(many.p50 / none.p50).toFixed(2)}×`);
}
