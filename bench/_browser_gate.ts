/**
 * The browser benches' gate: the same decision the browser tests make, except that a bench only
 * reports, so a missing Chromium prints why the bench is skipped and exits 0.
 */
import { existsSync } from "node:fs";
import { CHROMIUM_PATH, decideBrowserRun } from "../tests/helpers/browser_gate.ts";

/** Returns when Chromium can run; else prints "<name> skipped: <reason>" and exits. */
export function browserBenchGate(name: string): void {
  const decision = decideBrowserRun({
    ci: undefined, // a benchmark only reports; it never fails a run
    chromiumPath: CHROMIUM_PATH,
    chromiumExists: existsSync(CHROMIUM_PATH),
  });
  if (decision.action === "run") return;
  console.log(`${name} skipped: ${decision.reason}`);
  Deno.exit(0);
}
