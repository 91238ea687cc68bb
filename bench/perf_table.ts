/**
 * The performance table of the project's performance targets in one run (`deno task bench` runs
 * it first): every row measured on the hub of one checkout, started as a child process from
 * `<root>/main.ts` under that checkout's `start` task flags, with a temp config dir and no
 * telemetry. `--root <dir>` (default: this checkout) measures another checkout with the same
 * script, e.g. an older commit, for before/after numbers on the same machine; the other checkout's
 * own test helpers (fake extension, end-to-end fixture) are used, so each speaks its own protocol.
 * `--skip-browser` leaves out the Chromium rows. A full run takes about 1.5 minutes.
 *
 * Definitions: p50s are sequential calls from a client in this process; "server CPU per call" is
 * the hub process's utime+stime (/proc/<pid>/stat, all threads) across 5,000 calls with 25 in
 * flight, divided by the calls; the relay is bench/_bare_relay.ts, the floor of HTTP→WS→HTTP
 * with the same fake extension; RSS is VmRSS. The bench reports; it never fails on a number.
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { oneToolRows, toolsListRows } from "./_perf_loopback.ts";
import { type BrowserRates, browserRows } from "./_perf_browser.ts";
import { packageStartRows, sizeRows, startRows } from "./_perf_startup.ts";
import { siteGateRows } from "./browser_site_gate.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { root: { type: "string" }, "skip-browser": { type: "boolean" } },
});
const root = resolve(values.root ?? join(import.meta.dirname!, ".."));

const ms = (n: number) => `${n.toFixed(2)} ms`;
const us = (n: number) => `${Math.round(n)} µs`;
const mb = (n: number) => `${n.toFixed(0)} MB`;
const kb = (n: number) => `${n.toFixed(0)} KB`;
const rate = (n: number) => `${Math.round(n).toLocaleString("en")}`;
const times = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function revision(): Promise<string> {
  const git = (args: string[]) =>
    new Deno.Command("git", { args: ["-C", root, ...args], stdout: "piped", stderr: "null" })
      .output().then((o) => new TextDecoder().decode(o.stdout).trim()).catch(() => "");
  const head = await git(["rev-parse", "--short", "HEAD"]);
  const changed = (await git(["status", "--porcelain"])).split("\n").filter(Boolean).length;
  return `${head || "?"}${changed ? ` + ${changed} changed files` : ""}`;
}

const dir = await Deno.makeTempDir({ prefix: "hub-perf-table-" });
const began = performance.now();
try {
  let sizes = "not measured" as Awaited<ReturnType<typeof sizeRows>> | string;
  const one = await oneToolRows(root, dir, async () => {
    sizes = await sizeRows(root, dir).catch((e) => `not measured: ${String(e).slice(0, 300)}`);
  });
  const list = await toolsListRows(root, dir);
  const starts = await startRows(root, dir);
  const pkg = await packageStartRows(root, dir).catch((e) =>
    `not measured: ${String(e).slice(0, 300)}`
  );
  const browser = values["skip-browser"]
    ? "skipped (--skip-browser)"
    : await browserRows(root).catch((e) => `failed: ${String(e).slice(0, 300)}`);
  const sites = values["skip-browser"]
    ? "skipped (--skip-browser)"
    : await siteGateRows(root).catch((e) => `not measured: ${String(e).slice(0, 300)}`);

  const rows: Row[] = [
    [
      "MCP `tools/call` p50, fake extension, sequential (relay p50; ratio)",
      "0.86–0.97 ms (relay 0.15–0.19 ms)",
      `${ms(one.mcpP50)} (relay ${ms(one.relayP50)}; ${times(one.mcpP50, one.relayP50)})`,
      "≤ 0.5 ms (≤ 3× the relay)",
    ],
    [
      "REST call p50, fake extension, sequential (ratio to the relay)",
      "0.49–0.53 ms",
      `${ms(one.restP50)} (${times(one.restP50, one.relayP50)})`,
      "≤ 0.3 ms (≤ 1.8× the relay)",
    ],
    [
      "server CPU per call at 25 in flight (MCP / REST)",
      "198 / 86 µs",
      `${us(one.mcpCpuUs)} / ${us(one.restCpuUs)}`,
      "≤ 100 / 50 µs",
    ],
    [
      `\`tools/list\` of ${list.listTools} tools p50 (${
        kb(list.listBytes / 1024)
      }), vs bare server`,
      "3.5 ms vs 1.8 ms (1.84×)",
      `${ms(list.listP50)} vs ${ms(list.listBareP50)} (${times(list.listP50, list.listBareP50)})`,
      "≤ 1.3×",
    ],
    ...browserTableRows(browser),
    [
      "real Chromium, `browser_get_page_text` p50 / p95: no site rule vs 500 rules",
      "",
      typeof sites === "string" ? sites : `${ms(sites.none.p50)} / ${ms(sites.none.p95)} vs ` +
        `${ms(sites.many.p50)} / ${ms(sites.many.p95)} (${times(sites.many.p50, sites.none.p50)})`,
      "500 rules within noise",
    ],
    [
      `cold start → \`/health\`: wall, hub CPU (median of 5, first-run work included; warm start)`,
      "139 ms",
      `${ms(starts.coldMs)}, CPU ${ms(starts.coldCpuMs)} (warm ${ms(starts.warmMs)}, ` +
      `CPU ${ms(starts.warmCpuMs)})`,
      "≤ 100 ms",
    ],
    [
      "… the npm package: `main.js start` as its launcher runs it (warm); through the Node " +
      "launcher `hub start`, wall (warm)",
      "",
      typeof pkg === "string" ? pkg : `${ms(pkg.deno.coldMs)}, CPU ${ms(pkg.deno.coldCpuMs)} ` +
        `(warm ${ms(pkg.deno.warmMs)}); ${ms(pkg.launcher.coldMs)} ` +
        `(warm ${ms(pkg.launcher.warmMs)})`,
      "",
    ],
    [
      `RSS idle (10 s after start, one plugin) / 10 s after a burst of ${one.burstCalls} calls`,
      "92 / ~220 MB",
      `${mb(one.rssIdleMb)} / ${mb(one.rssAfterMb)}`,
      "≤ 70 / ≤ 110 MB",
    ],
    [
      "adapter of the scaffolded plugin / extension worker bundle",
      "381 / 406 KB",
      typeof sizes === "string"
        ? sizes
        : `${sizes.adapterKb.toFixed(1)} / ${sizes.workerKb.toFixed(1)} KiB`,
      "≤ 60 / ≤ 150 KB",
    ],
  ];
  console.log(`\nhub performance table: ${root} (${await revision()})`);
  console.log("\n| metric | today (issue) | measured | target |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log(`\n(run took ${((performance.now() - began) / 1000).toFixed(0)} s)`);
} finally {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}

function browserTableRows(
  browser: Awaited<ReturnType<typeof browserRows>>,
): Row[] {
  if (typeof browser === "string") {
    return [["real Chromium rows", "", browser, ""]];
  }
  return [
    ...rateRows(
      browser,
      [
        "real Chromium, 25 in flight (REST / MCP), calls/s",
        "real Chromium, sequential p50 (REST / MCP)",
      ],
      ["1,287–1,464 / 970–1,220", "2.3 / 2.8 ms"],
    ),
    ...(typeof browser.undriven === "string"
      ? [["… Chromium without DevTools attached", "", browser.undriven, ""] as Row]
      : rateRows(browser.undriven, [
        "… the same, Chromium started without DevTools attached: 25 in flight (REST / MCP), calls/s",
        "… and sequential p50 (REST / MCP)",
      ])),
  ];
}

type Row = [string, string, string, string];

/** The throughput and latency rows of one Chromium measurement, with the issue's targets. */
function rateRows(
  r: BrowserRates,
  labels: [string, string],
  today: [string, string] = ["", ""],
): Row[] {
  return [
    [labels[0], today[0], `${rate(r.restRate)} / ${rate(r.mcpRate)}`, "≥ 2,000 / ≥ 1,500"],
    [labels[1], today[1], `${ms(r.restP50)} / ${ms(r.mcpP50)}`, "≤ 1.8 / ≤ 2.2 ms"],
  ];
}
