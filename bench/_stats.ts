/** Timing helpers shared by the benchmarks: sampling, percentiles and the result table. */

export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Runs `run` `warmup` times untimed, then `n` times; returns each run's milliseconds. */
export async function measure(run: () => Promise<unknown>, n: number, warmup = 100) {
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  return samples;
}

/**
 * Keeps `concurrency` calls in flight until `n` calls finished; returns each call's milliseconds
 * and the calls per second over the whole run.
 */
export async function measureInFlight(
  run: () => Promise<unknown>,
  concurrency: number,
  n: number,
  warmup = 200,
): Promise<{ samples: number[]; rate: number }> {
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  let started = 0;
  const began = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (started++ < n) {
      const t = performance.now();
      await run();
      samples.push(performance.now() - t);
    }
  }));
  return { samples, rate: n / ((performance.now() - began) / 1000) };
}

/**
 * A row: name, samples, and calls per sample (0: no throughput column), or an explicit
 * throughput in calls per second.
 */
export type Row = [string, number[], number | { rate: number }];

export function printTable(rows: Row[]): void {
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log("\n| benchmark | p50 | p95 | p99 | throughput |");
  console.log("|---|---|---|---|---|");
  for (const [name, samples, calls] of rows) {
    const { p50, p95, p99 } = percentiles(samples);
    const total = samples.reduce((a, b) => a + b, 0);
    const rate = typeof calls === "object"
      ? `${Math.round(calls.rate)} calls/s`
      : calls === 0
      ? ""
      : `${Math.round((samples.length * calls) / (total / 1000))} calls/s`;
    console.log(`| ${name} | ${fmt(p50)} | ${fmt(p95)} | ${fmt(p99)} | ${rate} |`);
  }
}
