/**
 * The layers hold: every import of every source file in the repository is read and checked against
 * the rules of tests/helpers/layering_rules.ts (the layers of docs/architecture.md), and no import
 * cycle exists anywhere. Relative imports and workspace names (`@tabhub/sdk`,
 * `@hub/protocol/errors`, from deno.json "workspace" and each member's "exports") both resolve to
 * files. The rules and the
 * import reader are also tested on tiny in-memory examples, so a rule that matches nothing cannot
 * pass unnoticed.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { ROOT } from "./helpers/hub_process.ts";
import { importSpecifiers } from "./helpers/import_scan.ts";
import { graphOf, repositoryGraph, WORKSPACE } from "./helpers/import_graph.ts";
import {
  importCycles,
  LAYER_RULES,
  layerViolations,
  resolveImport,
  SDK_DOORS,
  SERVER_LAYER_RULE,
  SERVER_LAYERS,
  serverArrows,
} from "./helpers/layering_rules.ts";

const isFile = (path: string) =>
  statSync(join(ROOT, path), { throwIfNoEntry: false })?.isFile() === true;

Deno.test("every import in the repository respects the layers", async () => {
  const graph = await repositoryGraph();
  const files = [...graph.keys()];
  for (const dir of ["server/", "extension/src/worker/", "cli/", "core/", "protocol/", "sdk/"]) {
    if (!files.some((f) => f.startsWith(dir))) throw new Error(`read no source file in ${dir}`);
  }
  assert(graph.has("main.ts"), "read main.ts");
  const edges = [...graph.values()].flat();
  assert(edges.length > 500, `read only ${edges.length} imports of our files`);
  assert(edges.some((e) => e.specifier === "@tabhub/sdk"), "read the fixture plugin's @tabhub/sdk");
  const missing = [...graph].flatMap(([file, edges]) =>
    edges.filter((e) => !graph.has(e.target) && !isFile(e.target))
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

Deno.test("workspace names resolve to the files their members export", () => {
  const resolve = (specifier: string) => resolveImport("cli/x.ts", specifier, WORKSPACE);
  assertEquals(resolve("@tabhub/sdk"), "sdk/mod.ts");
  assertEquals(resolve("@tabhub/sdk/describe"), "sdk/describe.ts");
  assertEquals(resolve("@hub/protocol/errors"), "protocol/errors.ts");
  assertEquals(resolve("@hub/extension"), "extension/src/worker/background.ts");
  assertEquals(resolve("@hub/hub"), "main.ts");
  assertEquals(resolve("@hub/protocol/rpc"), "protocol/rpc", "not exported: no file, so missing");
  assertEquals(isFile(resolve("@hub/protocol/rpc")!), false);
  for (const external of ["npm:zod", "node:path", "zod", "@modelcontextprotocol/sdk"]) {
    assertEquals(resolve(external), undefined, external);
  }
});

Deno.test("the SDK's doors in the layering rules are the exports of sdk/deno.json", () => {
  const exported = [...WORKSPACE.exports].filter(([name]) => /^@tabhub\/sdk(\/|$)/.test(name));
  assertEquals([...SDK_DOORS].sort(), exported.map(([, file]) => file).sort());
});

type Example = [from: string, specifier: string];

/** Imports that each rule must refuse, and ones like them that no rule refuses. */
const RULE_EXAMPLES: Record<string, { bad: Example[]; good: Example[] }> = {
  "server/ and extension/ never import each other": {
    bad: [["server/calls/x.ts", "../../extension/src/worker/y.ts"], [
      "server/x.ts",
      "@hub/extension",
    ]],
    good: [["server/calls/x.ts", "../../protocol/y.ts"]],
  },
  "protocol/ imports nothing of ours outside protocol/": {
    bad: [["protocol/x.ts", "../core/y.ts"], ["protocol/x.ts", "@tabhub/sdk"]],
    good: [["protocol/x.ts", "./y.ts"], ["protocol/x.ts", "@hub/protocol/errors"]],
  },
  "sdk/ imports only sdk/ and protocol/": {
    bad: [["sdk/x.ts", "../core/y.ts"]],
    good: [["sdk/x.ts", "../protocol/y.ts"], ["sdk/x.ts", "./_state.ts"]],
  },
  "core/ imports only core/ and protocol/": {
    bad: [["core/config/x.ts", "../../server/y.ts"]],
    good: [["core/config/x.ts", "../../protocol/y.ts"]],
  },
  "server/ imports only server/, core/ and protocol/": {
    bad: [["server/x.ts", "../cli/y.ts"], ["server/x.ts", "@tabhub/sdk"]],
    good: [["server/x.ts", "../core/y.ts"]],
  },
  [SERVER_LAYER_RULE]: {
    bad: [
      ["server/plugins/x.ts", "../calls/y.ts"],
      ["server/calls/x.ts", "../ws/extension_link.ts"],
      ["server/log/x.ts", "../hub.ts"],
      ["server/routes.ts", "./mod.ts"],
      ["server/browser_tools/x.ts", "../management/y.ts"],
      ["server/net/x.ts", "../http/y.ts"],
      ["server/new_room/x.ts", "../log/y.ts"],
    ],
    good: [
      ["server/calls/x.ts", "./y.ts"],
      ["server/calls/x.ts", "../plugins/y.ts"],
      ["server/ws/x.ts", "../calls/extension_requests.ts"],
      ["server/extension/x.ts", "../changes/y.ts"],
      ["server/hub.ts", "./routes.ts"],
      ["server/mod.ts", "./hub.ts"],
      ["server/calls/x.ts", "../../protocol/y.ts"],
    ],
  },
  "server/net/ (the runtime glue) has one door: the rest of server/ imports only net/listen.ts": {
    bad: [["server/mod.ts", "./net/conn_cap.ts"], ["server/hub.ts", "./net/inner_server.ts"]],
    good: [["server/mod.ts", "./net/listen.ts"], ["server/net/listen.ts", "./conn_guard.ts"]],
  },
  "cli/ imports only cli/, server/mod.ts, core/ and protocol/": {
    bad: [
      ["cli/x.ts", "../server/hub.ts"],
      ["cli/x.ts", "../plugin_cli/y.ts"],
      ["cli/x.ts", "../sdk/mod.ts"],
      ["cli/x.ts", "@tabhub/sdk"],
      ["cli/x.ts", "@hub/extension"],
      ["cli/x.ts", "../main.ts"],
    ],
    good: [
      ["cli/x.ts", "../server/mod.ts"],
      ["cli/x.ts", "../core/y.ts"],
      ["cli/x.ts", "@hub/protocol/errors"],
      ["cli/x.ts", "./y.ts"],
    ],
  },
  "plugin_cli/ imports only plugin_cli/, core/, protocol/ and the SDK's doors": {
    bad: [
      ["plugin_cli/x.ts", "../server/mod.ts"],
      ["plugin_cli/x.ts", "../cli/y.ts"],
      ["plugin_cli/x.ts", "../sdk/plugin.ts"],
      ["plugin_cli/x.ts", "../extension/src/worker/y.ts"],
    ],
    good: [
      ["plugin_cli/x.ts", "../sdk/mod.ts"],
      ["plugin_cli/x.ts", "../sdk/describe.ts"],
      ["plugin_cli/x.ts", "@tabhub/sdk/describe"],
      ["plugin_cli/x.ts", "../core/y.ts"],
      ["plugin_cli/x.ts", "../protocol/y.ts"],
    ],
  },
  "main.ts imports only cli/, core/ and protocol/": {
    bad: [["main.ts", "./server/mod.ts"], ["main.ts", "./plugin_cli/main.ts"], [
      "main.ts",
      "@tabhub/sdk",
    ]],
    good: [["main.ts", "./cli/program.ts"], ["main.ts", "./core/cli/run_program.ts"]],
  },
  "extension/ imports only extension/ and protocol/": {
    bad: [["extension/src/panel/x.ts", "../../../core/y.ts"]],
    good: [["extension/src/panel/x.ts", "../../../protocol/y.ts"]],
  },
  "extension page/, panel/ and shared/ never import worker/": {
    bad: [["extension/src/page/x.ts", "../worker/y.ts"]],
    good: [["extension/src/page/x.ts", "../shared/y.ts"]],
  },
  "extension shared/ imports neither page/ nor panel/": {
    bad: [["extension/src/shared/x.ts", "../panel/y.ts"]],
    good: [["extension/src/shared/x.ts", "../../../protocol/y.ts"]],
  },
  "a _ file is private to its folder (and to test files of its top folder)": {
    bad: [
      ["plugin_cli/x.ts", "../sdk/_describe.ts"],
      ["server/calls/x.ts", "../plugins/_test_registry.ts"],
      ["extension/src/worker/browser_methods/x.ts", "../_test_fixtures.ts"],
      ["server/x_test.ts", "../extension/src/worker/_test_fixtures.ts"],
      ["tests/x_test.ts", "../sdk/_adapter.ts"],
    ],
    good: [
      ["sdk/x.ts", "./_adapter.ts"],
      ["extension/src/worker/browser_methods/x_test.ts", "../_test_fixtures.ts"],
      ["extension/src/worker/browser_methods/x.ts", "./_parsed_input.ts"],
      ["server/calls/x_test.ts", "../plugins/_test_registry.ts"],
      ["bench/x.ts", "./_stats.ts"],
    ],
  },
};

Deno.test("each layer rule refuses its bad imports and allows their neighbours", () => {
  assertEquals(Object.keys(RULE_EXAMPLES).sort(), LAYER_RULES.map((r) => r.name).sort());
  for (const rule of LAYER_RULES) {
    const { bad, good } = RULE_EXAMPLES[rule.name];
    for (const [from, specifier] of bad) {
      const graph = graphOf({ [from]: `import { y } from "${specifier}";` });
      assertEquals(layerViolations(graph, [rule]), [{ rule: rule.name, from, specifier }]);
    }
    for (const [from, specifier] of good) {
      const fine = graphOf({ [from]: `export * from "${specifier}";` });
      assertEquals(layerViolations(fine), [], `${from} → ${specifier} is allowed`);
    }
  }
});

Deno.test("a type-only import up the server layers is refused like any other", () => {
  const graph = graphOf({
    "server/calls/x.ts": `import type { ExtensionLink } from "../ws/extension_link.ts";`,
    "server/plugins/x.ts": `export type { Catalog } from "../calls/catalog.ts";`,
    "server/management/x.ts": `type T = typeof import("../calls/pipeline.ts");`,
  });
  assertEquals(layerViolations(graph).map((v) => v.from), [
    "server/calls/x.ts",
    "server/plugins/x.ts",
    "server/management/x.ts",
  ]);
});

Deno.test("server/ layers: each one imports only the layers below it", async (t) => {
  const arrows = serverArrows(await repositoryGraph());
  const placed = SERVER_LAYERS.flat();
  assertEquals(
    [...arrows.keys()].filter((e) => !placed.includes(e)),
    [],
    "every entry has a layer",
  );
  for (const [layer, entries] of SERVER_LAYERS.entries()) {
    const below = SERVER_LAYERS.slice(0, layer).flat();
    for (const entry of entries) {
      const targets = arrows.get(entry) ?? [];
      await t.step(`${layer + 1} ${entry} → ${targets.join(" ") || "nothing of server/"}`, () => {
        assertEquals(targets.filter((target) => !below.includes(target)), [], "arrows back up");
      });
    }
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
