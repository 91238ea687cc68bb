/**
 * The layers hold: every import of every source file in the repository is read and checked against
 * the rules of tests/helpers/layering_rules.ts (the layers of docs/architecture.md), and no import
 * cycle exists anywhere. The rules and the import reader are also tested on tiny
 * in-memory examples, so a rule that matches nothing cannot pass unnoticed.
 */
import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { ROOT } from "./helpers/hub_process.ts";
import { importSpecifiers } from "./helpers/import_scan.ts";
import {
  importCycles,
  type ImportGraph,
  LAYER_RULES,
  layerViolations,
  resolveRelative,
} from "./helpers/layering_rules.ts";

const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", "artifacts"]);

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !SKIPPED_DIRS.has(entry.name)) yield* sourceFiles(path);
    else if (entry.isFile && entry.name.endsWith(".ts")) yield path;
  }
}

/** Import graph of `sources` (repository path → text); only relative specifiers are edges. */
function graphOf(sources: Record<string, string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const [file, text] of Object.entries(sources)) {
    const edges = importSpecifiers(text).flatMap((specifier) => {
      const target = resolveRelative(file, specifier);
      return target === undefined ? [] : [{ specifier, target }];
    });
    graph.set(file, edges);
  }
  return graph;
}

async function repositoryGraph(): Promise<ImportGraph> {
  const sources: Record<string, string> = {};
  for await (const path of sourceFiles(ROOT)) {
    sources[relative(ROOT, path).split(sep).join("/")] = await Deno.readTextFile(path);
  }
  return graphOf(sources);
}

Deno.test("every import in the repository respects the layers", async () => {
  const graph = await repositoryGraph();
  const files = [...graph.keys()];
  for (const dir of ["server/", "extension/src/worker/", "cli/", "core/", "protocol/", "sdk/"]) {
    if (!files.some((f) => f.startsWith(dir))) throw new Error(`read no source file in ${dir}`);
  }
  const edges = [...graph.values()].flat();
  assert(edges.length > 500, `read only ${edges.length} relative imports`);
  const missing = [...graph].flatMap(([file, edges]) =>
    edges.filter((e) => !graph.has(e.target) && !existsSync(join(ROOT, e.target)))
      .map((e) => `${file} → ${e.specifier}`)
  );
  assertEquals(missing, [], "every import read names a file that exists");
  const lines = layerViolations(graph).map((v) => `${v.from} → ${v.specifier} (${v.rule})`);
  assertEquals(lines, [], `imports that break the layering:\n${lines.join("\n")}`);
});

Deno.test("no import cycle among the repository's files, tests included", async () => {
  const cycles = importCycles(await repositoryGraph()).map((c) => c.join(" → "));
  assertEquals(cycles, [], `import cycles:\n${cycles.join("\n")}`);
});

/** One import that each rule must refuse, and one like it that it must allow. */
const RULE_EXAMPLES: Record<string, { bad: [string, string]; good: [string, string] }> = {
  "server/ and extension/ never import each other": {
    bad: ["server/calls/x.ts", "../../extension/src/worker/y.ts"],
    good: ["server/calls/x.ts", "../../protocol/y.ts"],
  },
  "cli/ and plugin_cli/ never import each other": {
    bad: ["plugin_cli/x.ts", "../cli/y.ts"],
    good: ["plugin_cli/x.ts", "../core/y.ts"],
  },
  "protocol/ imports nothing of ours outside protocol/": {
    bad: ["protocol/x.ts", "../core/y.ts"],
    good: ["protocol/x.ts", "./y.ts"],
  },
  "sdk/ imports only sdk/ and protocol/": {
    bad: ["sdk/x.ts", "../core/y.ts"],
    good: ["sdk/x.ts", "../protocol/y.ts"],
  },
  "core/ imports only core/ and protocol/": {
    bad: ["core/config/x.ts", "../../server/y.ts"],
    good: ["core/config/x.ts", "../../protocol/y.ts"],
  },
  "server/ imports only server/, core/ and protocol/": {
    bad: ["server/x.ts", "../cli/y.ts"],
    good: ["server/x.ts", "../core/y.ts"],
  },
  "cli/ reaches server/ only through server/mod.ts": {
    bad: ["cli/x.ts", "../server/hub.ts"],
    good: ["cli/x.ts", "../server/mod.ts"],
  },
  "plugin_cli/ imports neither server/ nor cli/": {
    bad: ["plugin_cli/x.ts", "../server/mod.ts"],
    good: ["plugin_cli/x.ts", "../sdk/y.ts"],
  },
  "extension/ imports only extension/ and protocol/": {
    bad: ["extension/src/panel/x.ts", "../../../core/y.ts"],
    good: ["extension/src/panel/x.ts", "../../../protocol/y.ts"],
  },
  "extension page/, panel/ and shared/ never import worker/": {
    bad: ["extension/src/page/x.ts", "../worker/y.ts"],
    good: ["extension/src/page/x.ts", "../shared/y.ts"],
  },
  "extension shared/ imports neither page/ nor panel/": {
    bad: ["extension/src/shared/x.ts", "../panel/y.ts"],
    good: ["extension/src/shared/x.ts", "../../../protocol/y.ts"],
  },
};

Deno.test("each layer rule refuses its bad import and allows its neighbour", () => {
  assertEquals(Object.keys(RULE_EXAMPLES).sort(), LAYER_RULES.map((r) => r.name).sort());
  for (const rule of LAYER_RULES) {
    const { bad, good } = RULE_EXAMPLES[rule.name];
    const graph = graphOf({ [bad[0]]: `import { y } from "${bad[1]}";` });
    assertEquals(layerViolations(graph, [rule]), [
      { rule: rule.name, from: bad[0], specifier: bad[1] },
    ]);
    const fine = graphOf({ [good[0]]: `export * from "${good[1]}";` });
    assertEquals(layerViolations(fine), [], `${good.join(" → ")} is allowed`);
  }
});

Deno.test("test files may import across layers", () => {
  const graph = graphOf({
    "server/x_test.ts": `import "../extension/src/worker/y.ts";`,
    "tests/e2e/x_test.ts": `import { a } from "../../server/hub.ts";`,
    "bench/x.ts": `import { a } from "../extension/src/page/y.ts";`,
  });
  assertEquals(layerViolations(graph), []);
});

Deno.test("an import cycle is reported as the path of files that closes it", () => {
  const graph = graphOf({
    "core/a.ts": `import { b } from "./b.ts";`,
    "core/b.ts": `import type { C } from "./c.ts";`,
    "core/c.ts": `export { a } from "./a.ts"; import "../protocol/d.ts";`,
    "protocol/d.ts": `export const d = 1;`,
    "protocol/self.ts": `const m = await import("./self.ts");`,
    "core/a_test.ts": `import "./a.ts";`,
    "tests/helpers/h.ts": `import "../t_test.ts";`,
    "tests/t_test.ts": `import "./helpers/h.ts"; import "../core/a.ts";`,
  });
  assertEquals(importCycles(graph), [
    ["core/a.ts", "core/b.ts", "core/c.ts", "core/a.ts"],
    ["protocol/self.ts", "protocol/self.ts"],
    ["tests/helpers/h.ts", "tests/t_test.ts", "tests/helpers/h.ts"],
  ]);
  assertEquals(importCycles(graphOf({ "core/a.ts": `import "./b.ts";`, "core/b.ts": "" })), []);
});

Deno.test("the import reader finds every import form and nothing in strings or comments", () => {
  const source = [
    `import { a } from "./a.ts";`,
    `import type { B } from '../b.ts';`,
    `import "./side.ts";`,
    `import * as ns from "./ns.ts";`,
    `export { c } from "./c.ts";`,
    `export * from "./star.ts";`,
    `export type { D } from "./d.ts";`,
    `type T = typeof import("./typeof.ts");`,
    `const lazy = await import("./lazy.ts");`,
    `import {`,
    `  e,`,
    `  f,`,
    `} from "./multi.ts";`,
    `// import { no } from "./comment.ts";`,
    `/* export * from "./block.ts"; */`,
    'const code = `import { no } from "./template.ts"; ${`nested ${1}`} import("./t2.ts")`;',
    `const text = "import { no } from './string.ts'";`,
    `const re = /from "\\.\\/regex.ts"/;`,
    `const ratio = total / count; const more = { from: "./key.ts" }; Array.from("./arr.ts");`,
    `import.meta.url; x.import("./method.ts");`,
    `import { g } from "npm:zod";`,
  ].join("\n");
  assertEquals(importSpecifiers(source), [
    "./a.ts",
    "../b.ts",
    "./side.ts",
    "./ns.ts",
    "./c.ts",
    "./star.ts",
    "./d.ts",
    "./typeof.ts",
    "./lazy.ts",
    "./multi.ts",
    "npm:zod",
  ]);
});
