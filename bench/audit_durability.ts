/**
 * What it costs to have a call's audit line on disk before its answer leaves (docs/security.md,
 * "Audit log durability"). Four ways to write `audit.log`, each timed as the part of a call
 * between "the call ended" and "the answer may leave", one call at a time and 25 in flight:
 *
 * - batch, not awaited: queued and written by a zero-delay timer a moment later (what the hub did
 *   before; a SIGKILL in that moment loses answered calls);
 * - batch, awaited: the same batch, but the answer waits until the batch holding its line is
 *   written (a bound of one timer turn);
 * - write per call: one synchronous `write` of the line (the hub's choice, `createAuditFile`);
 * - write + fdatasync per call: the line also forced to the disk itself.
 */
import { join } from "node:path";
import { measure, measureInFlight, percentiles } from "./_stats.ts";
import { concatBytes } from "../protocol/bytes.ts";
import type { AuditEntry } from "../protocol/audit.ts";
import { createAuditFile } from "../server/audit/audit_file.ts";

const SEQUENTIAL = 5_000;
const IN_FLIGHT = 25;
const CONCURRENT_CALLS = 20_000;

const entry: AuditEntry = {
  timestamp: new Date().toISOString(),
  tool: "bench-1__tool_1",
  plugin: "bench-1",
  success: true,
  durationMs: 3,
};
const encoder = new TextEncoder();

/** Records one call's entry; resolves when its answer may leave. */
type Record = () => Promise<void>;

function openAppend(path: string): Deno.FsFile {
  return Deno.openSync(path, { append: true, create: true, mode: 0o600 });
}

/** Lines queued and written together by a zero-delay timer; `awaited` holds the answer for it. */
function batched(path: string, awaited: boolean): { record: Record; close(): void } {
  const file = openAppend(path);
  let queue: Uint8Array[] = [];
  let waiting: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const drain = () => {
    timer = undefined;
    const bytes = concatBytes(queue);
    for (let n = 0; n < bytes.length;) n += file.writeSync(bytes.subarray(n));
    queue = [];
    const done = waiting;
    waiting = [];
    for (const resolve of done) resolve();
  };
  return {
    record() {
      queue.push(encoder.encode(JSON.stringify(entry) + "\n"));
      timer ??= setTimeout(drain, 0);
      if (!awaited) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    close() {
      clearTimeout(timer);
      if (queue.length > 0) drain();
      file.close();
    },
  };
}

/** One synchronous write per call, then `fdatasync`. */
function synced(path: string): { record: Record; close(): void } {
  const file = openAppend(path);
  return {
    record() {
      const bytes = encoder.encode(JSON.stringify(entry) + "\n");
      for (let n = 0; n < bytes.length;) n += file.writeSync(bytes.subarray(n));
      file.syncDataSync();
      return Promise.resolve();
    },
    close: () => file.close(),
  };
}

/** The hub's writer: one synchronous write per call. */
function perCall(path: string): { record: Record; close(): void } {
  const file = createAuditFile(path, { onError: (m) => console.error(m) });
  return {
    record() {
      file.append(entry);
      return Promise.resolve();
    },
    close: () => file.close(),
  };
}

const dir = await Deno.makeTempDir({ prefix: "hub-bench-audit-" });
const ways: [string, (path: string) => { record: Record; close(): void }][] = [
  ["batch, not awaited (before; loses lines on SIGKILL)", (p) => batched(p, false)],
  ["batch, awaited (one timer turn)", (p) => batched(p, true)],
  ["write per call (chosen)", perCall],
  ["write + fdatasync per call", synced],
];
/** Microseconds: the numbers are too small for the milliseconds of `printTable`. */
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
console.log("\n| audit write | p50 | p95 | p99 | calls/s |");
console.log("|---|---|---|---|---|");
try {
  for (const [i, [name, make]] of ways.entries()) {
    const writer = make(join(dir, `${i}.log`));
    const one = percentiles(await measure(writer.record, SEQUENTIAL, 200));
    console.log(`| ${name}, sequential | ${us(one.p50)} | ${us(one.p95)} | ${us(one.p99)} | |`);
    const { samples, rate } = await measureInFlight(writer.record, IN_FLIGHT, CONCURRENT_CALLS);
    const many = percentiles(samples);
    console.log(
      `| ${name}, ${IN_FLIGHT} in flight | ${us(many.p50)} | ${us(many.p95)} | ` +
        `${us(many.p99)} | ${Math.round(rate)} |`,
    );
    writer.close();
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
