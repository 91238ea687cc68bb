/**
 * Helpers of the real-Chromium benches that print rows of name, value and target
 * (bench/browser_snapshot.ts, bench/browser_trusted.ts): a tool's value over REST, one run's time,
 * and a row that says why it was not measured instead of failing the bench.
 */
import { callTool, type E2E } from "../tests/helpers/e2e_fixture.ts";

/** A tool's value over REST; throws on a failed call. */
export async function value(e2e: E2E, tool: string, args: Record<string, unknown>) {
  const reply = await callTool(e2e, tool, args);
  if (reply.status !== 200 || reply.body.isError) {
    throw new Error(`${tool} failed: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
  }
  return reply.body.structuredContent;
}

/** Milliseconds of one run. */
export async function took(run: () => Promise<unknown>): Promise<number> {
  const began = performance.now();
  await run();
  return performance.now() - began;
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Name, measured value, target. */
export type Row = [string, string, string];

/** The row, or the row saying why it was not measured. */
export async function row(
  name: string,
  target: string,
  measure: () => Promise<string>,
): Promise<Row> {
  try {
    return [name, await measure(), target];
  } catch (error) {
    return [name, `not measured: ${String(error).slice(0, 300)}`, target];
  }
}
