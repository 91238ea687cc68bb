/**
 * Reads the repository's import graph: every `.ts` source file (outside node_modules, dist, .git,
 * artifacts) and the files of ours each one imports. Relative imports and workspace names
 * (`@tabhub/sdk`, `@hub/protocol/errors`, from deno.json "workspace" and each member's "exports")
 * both resolve to files. tests/layering_test.ts checks the graph; tests/draw_layers.ts draws it.
 */
import { join, posix, relative, sep } from "node:path";
import { ROOT } from "./hub_process.ts";
import { importSpecifiers } from "./import_scan.ts";
import {
  type ImportGraph,
  type MemberConfig,
  resolveImport,
  type Workspace,
  workspaceOf,
} from "./layering_rules.ts";

const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", "artifacts"]);

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !SKIPPED_DIRS.has(entry.name)) yield* sourceFiles(path);
    else if (entry.isFile && entry.name.endsWith(".ts")) yield path;
  }
}

/** The root deno.json and its workspace members' (tests/fixtures/plugins/test-app has no name). */
function readWorkspace(): Workspace {
  const read = (dir: string): MemberConfig & { workspace?: string[] } =>
    JSON.parse(Deno.readTextFileSync(join(ROOT, dir, "deno.json")));
  const root = read("");
  const dirs = (root.workspace ?? []).map((dir) => posix.normalize(dir));
  return workspaceOf([
    { dir: "", config: root },
    ...dirs.map((dir) => ({ dir, config: read(dir) })),
  ]);
}

export const WORKSPACE = readWorkspace();

/** Import graph of `sources` (repository path → text); only imports of our files are edges. */
export function graphOf(sources: Record<string, string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const [file, text] of Object.entries(sources)) {
    const edges = importSpecifiers(text).flatMap((specifier) => {
      const target = resolveImport(file, specifier, WORKSPACE);
      return target === undefined ? [] : [{ specifier, target }];
    });
    graph.set(file, edges);
  }
  return graph;
}

/** The import graph of the whole repository. */
export async function repositoryGraph(): Promise<ImportGraph> {
  const sources: Record<string, string> = {};
  for await (const path of sourceFiles(ROOT)) {
    sources[relative(ROOT, path).split(sep).join("/")] = await Deno.readTextFile(path);
  }
  return graphOf(sources);
}
