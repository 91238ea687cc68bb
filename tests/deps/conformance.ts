/**
 * The test tools that hub itself never runs, and how a test runs one as a program.
 *
 * They are pinned in tests/deps/ instead of deno.json, so deno.lock holds only what hub runs and the
 * first `deno task start` downloads nothing else. `deno task test` reads and writes tests/test.lock
 * (hub's packages and these) and keeps Deno's npm cache for them, outside node_modules: node_modules
 * stays the runtime set that every `deno run main.ts` installs. See
 * docs/decisions/076-runtime-dependencies.md.
 */
import { join } from "node:path";

const ROOT = join(import.meta.dirname!, "..", "..");

/** The official MCP conformance suite, run as a program by tests/mcp_conformance_test.ts. */
export const CONFORMANCE = "npm:@modelcontextprotocol/conformance@0.1.16";

/** The Deno flags of a program that uses a test tool: the test lockfile, no node_modules. */
export const TEST_TOOL_FLAGS: readonly string[] = [
  `--lock=${join(ROOT, "tests", "test.lock")}`,
  "--node-modules-dir=none",
];
