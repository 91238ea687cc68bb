/**
 * Whether the browser suites run here. They need a real Chromium: where it is missing they are
 * skipped with one line saying why, except in CI (`CI=true` or `CI=1`), where a missing browser
 * fails the run, so a green CI always includes them.
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Names another Chromium binary than the Debian package's. */
export const CHROMIUM_ENV = "HUB_TEST_CHROMIUM";
export const DEFAULT_CHROMIUM_PATH = "/usr/lib/chromium/chromium";

/** The Chromium the browser tests launch. */
export const CHROMIUM_PATH = Deno.env.get(CHROMIUM_ENV) || DEFAULT_CHROMIUM_PATH;

export type BrowserDecision =
  | { action: "run" }
  | { action: "skip"; reason: string }
  | { action: "fail"; reason: string };

export interface BrowserFacts {
  /** The value of the CI environment variable, if set. */
  ci: string | undefined;
  chromiumPath: string;
  chromiumExists: boolean;
}

/** `CI=true` or `CI=1` (any case, as CI services set it). */
export function isCi(value: string | undefined): boolean {
  return ["true", "1"].includes((value ?? "").trim().toLowerCase());
}

/** Run when Chromium is there; otherwise skip, or fail in CI. */
export function decideBrowserRun(facts: BrowserFacts): BrowserDecision {
  if (facts.chromiumExists) return { action: "run" };
  const missing = `Chromium is missing: ${facts.chromiumPath} does not exist. Install it with ` +
    `"apt-get install -y chromium", or set ${CHROMIUM_ENV} to the path of a Chromium binary`;
  if (isCi(facts.ci)) {
    return { action: "fail", reason: `${missing}. CI=${facts.ci}: browser suites must run in CI.` };
  }
  return { action: "skip", reason: `${missing} (with CI=true this fails the run instead)` };
}

export interface BrowserGate {
  /** For `Deno.test({ ignore })`: true only when the suite is skipped. */
  ignore: boolean;
  /** Throws the reason the suite cannot run (in CI); call it first in each test or `beforeAll`. */
  check(): void;
}

function suiteName(suiteUrl: string): string {
  try {
    return relative(Deno.cwd(), fileURLToPath(suiteUrl));
  } catch {
    return suiteUrl;
  }
}

/** The gate of one browser suite (`import.meta.url`); prints one line when it is skipped. */
export function browserGate(suiteUrl: string): BrowserGate {
  const decision = decideBrowserRun({
    ci: Deno.env.get("CI"),
    chromiumPath: CHROMIUM_PATH,
    chromiumExists: existsSync(CHROMIUM_PATH),
  });
  if (decision.action === "skip") {
    console.log(`skipping browser suite ${suiteName(suiteUrl)}: ${decision.reason}`);
  }
  return {
    ignore: decision.action === "skip",
    check() {
      if (decision.action === "fail") throw new Error(decision.reason);
    },
  };
}
