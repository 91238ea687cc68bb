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

/** A row: name, samples, and calls per sample (0: no throughput column). */
export type Row = [string, number[], number];

export function printTable(rows: Row[]): void {
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log("\n| benchmark | p50 | p95 | p99 | throughput |");
  console.log("|---|---|---|---|---|");
  for (const [name, samples, calls] of rows) {
    const { p50, p95, p99 } = percentiles(samples);
    const total = samples.reduce((a, b) => a + b, 0);
    const rate = calls === 0
      ? ""
      : `${Math.round((samples.length * calls) / (total / 1000))} calls/s`;
    console.log(`| ${name} | ${fmt(p50)} | ${fmt(p95)} | ${fmt(p99)} | ${rate} |`);
  }
}
