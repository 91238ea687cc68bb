/**
 * Memory under floods (`deno task bench` runs this last): the real hub as a child process on a
 * temp config dir, its resident memory (VmRSS) idle, at the peak and 10 s after (a) a `/ws` flood
 * of 10,000 messages from a fake extension (ping, tab.syncAll, plugin.log batches, junk) and
 * (b) 1,000 oversized REST calls (2 MB bodies whose `tags` should be strings, to an `auto` and an
 * `off` tool, and bodies over the 10 MB limit). Target: back under 2× the idle RSS. The bench
 * reports; it does not fail. A phase that runs past its time cap stops early and says so.
 */
import { FakeExtension, type ReceivedMessage } from "../tests/helpers/fake_extension.ts";
import { FUZZ_TOOLS, type FuzzHub, startFuzzHub } from "../tests/helpers/fuzz_hub.ts";

const WS_MESSAGES = 10_000;
const REST_CALLS = 1_000;
const REST_IN_FLIGHT = 4;
/** A phase stops sending after this long; the table shows how much was sent. */
const PHASE_CAP_MS = 120_000;
const SETTLE_MS = 10_000;

interface PhaseResult {
  name: string;
  sent: string;
  seconds: number;
  beforeMb: number;
  peakMb: number;
  afterMb: number;
}

/** Samples RSS every 50 ms while `work` runs; returns the highest value. */
async function withPeak(fz: FuzzHub, work: () => Promise<void>): Promise<number> {
  let peak = await fz.rssMb();
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await fz.rssMb().catch(() => peak));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await sampler;
  }
  return peak;
}

async function phase(
  fz: FuzzHub,
  name: string,
  work: () => Promise<string>,
): Promise<PhaseResult> {
  const beforeMb = await fz.rssMb();
  const started = performance.now();
  let sent = "";
  const peakMb = await withPeak(fz, async () => {
    sent = await work();
  });
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return { name, sent, seconds, beforeMb, peakMb, afterMb: await fz.rssMb() };
}

/** The i-th flood message: a ping, a full tab report, a batch of 100 log lines, or junk. */
function floodMessage(i: number): string | Uint8Array {
  const rpc = (method: string, params: unknown, id?: string) =>
    JSON.stringify({ jsonrpc: "2.0", ...(id ? { id } : {}), method, params });
  switch (i % 4) {
    case 0:
      return rpc("ping", {});
    case 1:
      return rpc("tab.syncAll", {
        plugins: Array.from({ length: 20 }, (_, p) => ({
          plugin: `flood-${p}`,
          state: "ready",
          tabs: [{
            tabId: i + 1,
            url: `https://example.com/${i}`,
            title: "t".repeat(200),
            ready: true,
          }],
        })),
      });
    case 2:
      return rpc("plugin.log", {
        plugin: `flood-${i % 500}`,
        entries: Array.from({ length: 100 }, () => ({ level: "info", message: "m".repeat(1024) })),
      });
    default: {
      const junk = [
        "{not json",
        rpc("no.such.method", { x: 1 }, `junk-${i}`),
        JSON.stringify({ jsonrpc: "2.0", id: `unknown-${i}`, result: { big: "r".repeat(4096) } }),
      ];
      return i % 16 === 15 ? new Uint8Array(512) : junk[i % 3];
    }
  }
}

/** Sends a request and waits (up to the phase cap) for its reply. */
async function roundTrip(ext: FakeExtension, replies: ReceivedMessage[], id: string) {
  ext.sendRaw(JSON.stringify({ jsonrpc: "2.0", id, method: "config.getState" }));
  const deadline = performance.now() + PHASE_CAP_MS;
  while (!replies.some((m) => m.id === id) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return replies.some((m) => m.id === id);
}

async function wsFlood(fz: FuzzHub): Promise<string> {
  const ext = await FakeExtension.connect(fz.hub.port, fz.hub.secret);
  const replies: ReceivedMessage[] = [];
  ext.onMessage((m) => {
    if (m.method === undefined && typeof m.id === "string" && m.id.startsWith("done-")) {
      replies.push(m);
    }
  });
  await ext.waitFor((m) => m.method === "sync.full");
  const started = performance.now();
  let sent = 0;
  for (; sent < WS_MESSAGES && performance.now() - started < PHASE_CAP_MS; sent++) {
    const message = floodMessage(sent);
    if (typeof message === "string") ext.sendRaw(message);
    else ext.socket.send(message);
    // Let the socket drain now and then so the flood measures the hub, not this process.
    if (sent % 500 === 499) await new Promise((r) => setTimeout(r, 0));
  }
  const answered = await roundTrip(ext, replies, "done-1");
  await ext.close();
  return `${sent} messages${answered ? "" : " (hub did not catch up within the cap)"}`;
}

async function oversizedCalls(fz: FuzzHub): Promise<string> {
  const badArgs = JSON.stringify({ arguments: { tags: new Array(1_000_000).fill(0) } });
  const overLimit = JSON.stringify({ arguments: { note: "x".repeat(10 * 2 ** 20 + 1024) } });
  const bodies = [
    [FUZZ_TOOLS.auto, badArgs],
    [FUZZ_TOOLS.off, badArgs],
    [FUZZ_TOOLS.auto, overLimit],
  ] as const;
  const started = performance.now();
  let next = 0;
  let done = 0;
  const statuses = new Map<number, number>();
  await Promise.all(Array.from({ length: REST_IN_FLIGHT }, async () => {
    while (next < REST_CALLS && performance.now() - started < PHASE_CAP_MS) {
      const [tool, body] = bodies[next++ % bodies.length];
      try {
        const res = await fetch(`${fz.hub.url}/tools/${tool}/call`, {
          method: "POST",
          headers: fz.headers(),
          body,
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      done++;
    }
  }));
  const byStatus = [...statuses].map(([s, n]) => `${n}× ${s || "failed"}`).join(", ");
  const capped = done < REST_CALLS ? ` of ${REST_CALLS} (time cap)` : "";
  return `${done} calls${capped}: ${byStatus}`;
}

function printResults(idleMb: number, results: PhaseResult[]): void {
  const mb = (n: number) => `${n.toFixed(1)} MB`;
  console.log(
    `\nhub idle RSS: ${mb(idleMb)}; target: ${SETTLE_MS / 1000} s after each flood, ` +
      `RSS < 2× idle = ${mb(2 * idleMb)}`,
  );
  console.log(
    "\n| flood | sent | duration | RSS before | RSS peak | RSS 10 s after | after / idle | < 2× idle |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    const ratio = r.afterMb / idleMb;
    console.log(
      `| ${r.name} | ${r.sent} | ${r.seconds.toFixed(1)} s | ${mb(r.beforeMb)} | ${
        mb(r.peakMb)
      } | ` +
        `${mb(r.afterMb)} | ${ratio.toFixed(2)}× | ${ratio < 2 ? "yes" : "NO"} |`,
    );
  }
}

const fz = await startFuzzHub();
try {
  await new Promise((r) => setTimeout(r, 2_000));
  const idleMb = await fz.rssMb();
  const results = [
    await phase(fz, `/ws flood, ${WS_MESSAGES} messages`, () => wsFlood(fz)),
    await phase(fz, `${REST_CALLS} oversized REST calls`, () => oversizedCalls(fz)),
  ];
  printResults(idleMb, results);
  if (!fz.alive()) console.log("\nThe hub died during the floods.");
} finally {
  await fz.close();
}
