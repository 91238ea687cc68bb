/**
 * The real hub as a child process for the fuzz suites (tests/security/fuzz_*_test.ts): a temp
 * config dir with two plugins (`fz` on `auto`, with a typed schema and settings; `shut` on `off`),
 * the child's resident memory from /proc, and the checks every fuzz property ends with: the
 * process is alive, `/health` answers 200, and RSS settles under a bound.
 */
import { join } from "node:path";
import fc from "fast-check";
import { type RunningHub, startHub } from "./hub_process.ts";
import { writePluginFolder } from "./plugin_cli.ts";
import type { McpPath } from "../../server/mcp/seam.ts";

/** The child program of a hub without the MCP fast path. */
const SDK_SEAM_HUB = join(import.meta.dirname!, "sdk_seam_hub.ts");

/** A tool argument that must be a list of strings: where oversized validation errors come from. */
const TAGS_SCHEMA = {
  type: "object",
  properties: {
    tags: { type: "array", items: { type: "string" }, description: "Labels" },
    note: { type: "string", description: "Free text" },
  },
  required: ["tags"],
};

/** The plugin tools the fuzzers call, real and fake. */
export const FUZZ_TOOLS = {
  /** `auto`, schema above. */
  auto: "fz__tagged",
  /** `auto`, `{ text: string }` required. */
  autoText: "fz__echo",
  /** Plugin `shut` is `off`; same schema as `fz__tagged`. */
  off: "shut__tagged",
  missing: "fz__no_such_tool",
  noPlugin: "nope__tagged",
} as const;

/** Settings of plugin `fz` (`POST /plugin-settings`, `config.setPluginSettings`). */
export const FZ_SETTINGS = ["baseUrl", "mode", "verbose", "depth"] as const;

/**
 * Whether a settings update may succeed: the plugin is loaded (`fz`, or `shut` which has no
 * settings) and every key is one of its own fields.
 */
export function settingsMayPass(plugin: unknown, settings: unknown): boolean {
  const fields: Record<string, readonly string[]> = { fz: FZ_SETTINGS, shut: [] };
  if (typeof plugin !== "string" || !Object.hasOwn(fields, plugin)) return false;
  const keys = Object.keys(typeof settings === "object" && settings !== null ? settings : {});
  return keys.every((k) => fields[plugin].includes(k));
}

export interface FuzzHub {
  hub: RunningHub;
  pid: number;
  /** RSS in MB after the hub started and answered a few requests. */
  baselineMb: number;
  /** Highest RSS sampled (every 250 ms) since the hub started. */
  peakMb(): number;
  rssMb(): Promise<number>;
  alive(): boolean;
  headers(extra?: Record<string, string>): Record<string, string>;
  /**
   * Asserts the hub survived a fuzz run: alive, `/health` 200, and RSS back under
   * `3 × baseline + 100 MB` within 10 s. Logs the numbers; throws with them otherwise.
   */
  checkAfterRun(label: string): Promise<void>;
  close(): Promise<void>;
}

/** VmRSS of `pid` in MB, from /proc/<pid>/status (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`No VmRSS line in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

async function writeFuzzConfig(dir: string): Promise<void> {
  const fz = await writePluginFolder(join(dir, "plugins", "fz"), {
    name: "fz",
    tools: [{ name: "tagged", inputSchema: TAGS_SCHEMA }, "echo"],
    hub: {
      configSchema: {
        baseUrl: { type: "url", label: "Base URL" },
        mode: { type: "select", label: "Mode", options: ["fast", "slow"] },
        verbose: { type: "boolean", label: "Verbose" },
        depth: { type: "number", label: "Depth", min: 0, max: 10, integer: true },
      },
    },
  });
  const shut = await writePluginFolder(join(dir, "plugins", "shut"), {
    name: "shut",
    tools: [{ name: "tagged", inputSchema: TAGS_SCHEMA }],
  });
  const config = {
    localPlugins: [fz, shut],
    permissions: { fz: { permission: "auto", tools: {} }, shut: { permission: "off", tools: {} } },
    telemetry: false,
    updateCheckIntervalMinutes: 0,
  };
  await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(config, null, 2));
}

/**
 * Starts the fuzz hub: `hub start`, or with `mcpPath: "sdk"` a hub whose MCP sessions answer
 * through the SDK alone (tests/helpers/sdk_seam_hub.ts), so both MCP seams meet the same fuzz.
 */
export async function startFuzzHub(options: { mcpPath?: McpPath } = {}): Promise<FuzzHub> {
  const dir = await Deno.makeTempDir({ prefix: "hub-fuzz-" });
  await writeFuzzConfig(dir);
  const program = options.mcpPath === "sdk" ? SDK_SEAM_HUB : undefined;
  const hub = await startHub({ configDir: dir, env: { HUB_TELEMETRY_DISABLED: "1" }, program })
    .catch(async (error) => {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      throw error;
    });
  const pid = hub.child.pid;
  let exited = false;
  void hub.child.status.then(() => (exited = true));
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${hub.secret}`,
    "content-type": "application/json",
    ...extra,
  });
  for (let i = 0; i < 20; i++) {
    await (await fetch(`${hub.url}/tools`, { headers: headers() })).body?.cancel();
  }
  const baselineMb = await rssMb(pid);
  let peak = baselineMb;
  const sampler = setInterval(() => {
    if (exited) return;
    rssMb(pid).then((mb) => (peak = Math.max(peak, mb))).catch(() => {});
  }, 250);
  console.log(`hub pid ${pid}, baseline RSS ${baselineMb.toFixed(1)} MB`);

  return {
    hub,
    pid,
    baselineMb,
    peakMb: () => peak,
    rssMb: () => rssMb(pid),
    alive: () => !exited,
    headers,
    async checkAfterRun(label) {
      if (exited) throw new Error(`${label}: the hub died. Output:\n${tail(hub.output())}`);
      const res = await fetch(`${hub.url}/health`, { signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${label}: /health answered ${res.status}: ${text}`);
      const bound = 3 * baselineMb + 100;
      let now = await rssMb(pid);
      for (let i = 0; i < 20 && now > bound; i++) {
        await new Promise((r) => setTimeout(r, 500));
        now = await rssMb(pid);
      }
      const numbers = `RSS baseline ${baselineMb.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, ` +
        `after ${now.toFixed(1)} MB (bound ${bound.toFixed(1)} MB)`;
      console.log(`${label}: ${numbers}`);
      if (now > bound) throw new Error(`${label}: memory did not settle: ${numbers}`);
    },
    async close() {
      clearInterval(sampler);
      await hub.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

function tail(text: string, chars = 4000): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/** Largest error body (HTTP or JSON-RPC error) a fuzz input may get back. */
export const MAX_ERROR_BODY_BYTES = 32 * 1024;
/** Largest body of any response (success ones included, e.g. `/audit`). */
export const MAX_ANY_BODY_BYTES = 2 * 1024 * 1024;

/**
 * Runs a fast-check property with a fixed seed, printed before the run. On failure it throws
 * with the seed, the replay path, the shrunk input (long strings and arrays abbreviated) and the
 * problem found.
 */
export async function assertProperty<T>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<T> | fc.IAsyncProperty<T>,
  options: { seed: number; numRuns: number },
): Promise<void> {
  console.log(`fuzz "${name}": seed ${options.seed}, ${options.numRuns} runs`);
  const details = await fc.check(property, options);
  if (!details.failed) return;
  const error = details.errorInstance as Error | undefined;
  throw new Error(
    `fuzz "${name}" failed after ${details.numRuns} runs and ${details.numShrinks} shrinks ` +
      `(seed ${details.seed}, path "${details.counterexamplePath}").\n` +
      `input: ${summarize(details.counterexample)}\n` +
      `problem: ${String(error?.message ?? error).slice(0, 2000)}`,
  );
}

/** JSON of `value` with long strings and arrays abbreviated, for failure messages. */
export function summarize(value: unknown, max = 3000): string {
  const text = JSON.stringify(value, (_key, v) => {
    if (typeof v === "string" && v.length > 120) {
      return `${v.slice(0, 60)}…(${v.length} chars)`;
    }
    if (Array.isArray(v) && v.length > 12) return [...v.slice(0, 6), `…(${v.length} items)`];
    return v;
  }) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** Keys that reach `Object.prototype` or its methods when code indexes a plain object. */
export const PROTO_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "__defineGetter__",
  "toLocaleString",
];

/** Object keys: mostly short strings, often prototype names and real field names. */
export function fuzzKey(known: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    ...(known.length ? [{ weight: 2, arbitrary: fc.constantFrom(...known) }] : []),
  );
}

/**
 * Any JSON value, with prototype-ish keys, deep and wide shapes, and now and then a large string
 * (up to `bigString` characters).
 */
export function fuzzJson(
  opts: { known?: readonly string[]; bigString?: number } = {},
): fc.Arbitrary<unknown> {
  const big = opts.bigString ?? 200_000;
  const leaf = fc.oneof(
    { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: big }).map((n) => "x".repeat(n)) },
    { weight: 1, arbitrary: fc.constantFrom(1e308, -0, 2 ** 53 + 1, -1, 0.5, "", null) },
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("value"), { maxLength: 6 }),
      fc.dictionary(fuzzKey(opts.known), tie("value"), { maxKeys: 6 }),
    ),
  }));
  return fc.oneof(
    { weight: 8, arbitrary: value },
    { weight: 1, arbitrary: deepNest() },
    { weight: 1, arbitrary: wideObject() },
  );
}

/** `[[[…]]]` or `{"a":{"a":…}}` up to 2,000 levels. */
function deepNest(): fc.Arbitrary<unknown> {
  return fc.tuple(fc.integer({ min: 10, max: 2_000 }), fc.boolean()).map(([depth, asArray]) => {
    let value: unknown = 0;
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
    return value;
  });
}

/** An object with up to 20,000 keys, or an array with up to 100,000 items. */
function wideObject(): fc.Arbitrary<unknown> {
  return fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean()).map(([n, asArray]) =>
    asArray
      ? Array.from({ length: n * 5 }, (_, i) => i)
      : Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
  );
}

/**
 * A fuzz step on a running hub: runs `fuzz`, then (even when it failed) `checkAfterRun`, and
 * reports the first failure.
 */
export async function fuzzStep(
  hub: FuzzHub,
  label: string,
  fuzz: () => Promise<void>,
): Promise<void> {
  let failure: unknown;
  try {
    await fuzz();
  } catch (error) {
    failure = error;
  }
  try {
    await hub.checkAfterRun(label);
  } catch (error) {
    if (failure === undefined) failure = error;
    else console.error(String(error));
  }
  if (failure !== undefined) throw failure;
}

/** A string of printable ASCII (space to `~`): safe inside an HTTP header or request line. */
export function printable(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc.array(fc.integer({ min: 0x20, max: 0x7e }), { minLength, maxLength })
    .map((codes) => String.fromCharCode(...codes));
}
