/**
 * The first `deno task start` of a fresh clone downloads only what hub runs
 * (docs/decisions/076-runtime-dependencies.md). Deno installs every package of deno.lock, whatever
 * the program imports, so the test tools (pinned in tests/deps/) must stay out of deno.lock and out
 * of deno.json's npm imports, and neither program of the repository may reach them. `deno task test`
 * records them in tests/test.lock, which must resolve hub's own packages as deno.lock does.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { ROOT, runCommand } from "./helpers/hub_process.ts";

interface Lock {
  specifiers?: Record<string, string>;
  npm?: Record<string, unknown>;
}

const DEPS_DIR = join(ROOT, "tests", "deps");
const FIX = 'Pin test tools in tests/deps/ only, and run tests through "deno task test" (it uses ' +
  'tests/test.lock); then restore deno.lock from git, or prune it with "deno info main.ts".';

/** The test tools: the package name of every `npm:name@version` in tests/deps/. */
function testTools(): string[] {
  const names = new Set<string>();
  for (const entry of Deno.readDirSync(DEPS_DIR)) {
    if (!entry.name.endsWith(".ts")) continue;
    const text = Deno.readTextFileSync(join(DEPS_DIR, entry.name));
    for (const m of text.matchAll(/"npm:((?:@[^/"@]+\/)?[^/"@]+)@/g)) names.add(m[1]);
  }
  return [...names].sort();
}

/** `zod@4.6.7`, `@scope/name@1.0.0_peer@2`, `npm:zod@^4` or `npm:/zod@4.6.7/x` → the package name. */
function packageName(key: string): string {
  const rest = key.replace(/^npm:\/?/, "");
  const at = rest.indexOf("@", 1);
  return at === -1 ? rest : rest.slice(0, at);
}

function readLock(path: string): Lock {
  return JSON.parse(Deno.readTextFileSync(path)) as Lock;
}

Deno.test("runtime deps: tests/deps/ pins the test tools (playwright-core, fast-check, conformance)", () => {
  assertEquals(testTools(), ["@modelcontextprotocol/conformance", "fast-check", "playwright-core"]);
});

Deno.test("runtime deps: deno.json imports no test tool from npm; their names map into tests/deps/", () => {
  const imports = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))).imports as Record<
    string,
    string
  >;
  const tools = new Set(testTools());
  for (const [name, target] of Object.entries(imports)) {
    if (target.startsWith("npm:")) {
      assert(!tools.has(packageName(target)), `deno.json imports the test tool ${target}. ${FIX}`);
    }
    if (tools.has(name)) assert(target.startsWith("./tests/deps/"), `${name} → ${target}. ${FIX}`);
  }
});

Deno.test("runtime deps: deno.lock, what the first start installs, holds no test tool", () => {
  const lock = readLock(join(ROOT, "deno.lock"));
  const tools = new Set(testTools());
  const found = [...Object.keys(lock.specifiers ?? {}), ...Object.keys(lock.npm ?? {})]
    .filter((key) => tools.has(packageName(key)));
  assertEquals(found, [], `deno.lock holds test tools. ${FIX}`);
});

Deno.test("runtime deps: tests/test.lock resolves hub's packages as deno.lock does", () => {
  const runtime = readLock(join(ROOT, "deno.lock")).specifiers ?? {};
  const test = readLock(join(ROOT, "tests", "test.lock")).specifiers ?? {};
  const differ = Object.entries(runtime)
    .filter(([specifier, version]) => test[specifier] !== version)
    .map(([specifier, version]) => `${specifier}: ${version} vs ${test[specifier]}`);
  assertEquals(
    differ,
    [],
    "tests/test.lock drifted from deno.lock: copy deno.lock to tests/test.lock, then run " +
      '"deno task test" once to add the test tools back.',
  );
});

for (const entry of ["main.ts", "plugin_cli/main.ts"]) {
  Deno.test(`runtime deps: ${entry} reaches nothing under tests/ and no test tool`, async () => {
    // Deno's npm cache, not node_modules: other suites' hubs use node_modules meanwhile.
    const command = new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--node-modules-dir=none", entry],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
    const result = await runCommand(`deno info ${entry}`, command, 120_000);
    assertEquals(result.code, 0, result.stderr);
    const info = JSON.parse(result.stdout) as {
      modules: { specifier: string; dependencies?: { code?: { specifier?: string } }[] }[];
    };
    const tools = new Set(testTools());
    const testsUrl = new URL(`file://${join(ROOT, "tests")}/`).href;
    const reached = info.modules.flatMap((m) => [
      m.specifier,
      ...(m.dependencies ?? []).map((d) => d.code?.specifier ?? ""),
    ]);
    const bad = reached.filter((s) =>
      s.startsWith(testsUrl) || (s.startsWith("npm:") && tools.has(packageName(s)))
    );
    assertEquals([...new Set(bad)], [], `${entry} imports test code or a test tool`);
  });
}
