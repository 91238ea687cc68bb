/**
 * The layering of the repository as checkable rules over an import graph (file → the files it
 * imports, paths relative to the repository root, `/`-separated), and a search for import cycles.
 * docs/architecture.md describes the layers; tests/layering_test.ts applies these rules to the
 * real tree and to small examples.
 */
import { posix } from "node:path";

/** One source file and what it imports: the written specifier and the path it resolves to. */
export interface ImportEdge {
  specifier: string;
  target: string;
}
export type ImportGraph = Map<string, ImportEdge[]>;

export interface LayerRule {
  name: string;
  /** True when `from` importing `to` breaks the rule. */
  forbids(from: string, to: string): boolean;
}

export interface Violation {
  rule: string;
  from: string;
  specifier: string;
}

const under = (path: string, ...dirs: string[]) => dirs.some((d) => path.startsWith(`${d}/`));

const EXT = "extension/src";

export const LAYER_RULES: LayerRule[] = [
  {
    name: "server/ and extension/ never import each other",
    forbids: (from, to) =>
      (under(from, "server") && under(to, "extension")) ||
      (under(from, "extension") && under(to, "server")),
  },
  {
    name: "cli/ and plugin_cli/ never import each other",
    forbids: (from, to) =>
      (under(from, "cli") && under(to, "plugin_cli")) ||
      (under(from, "plugin_cli") && under(to, "cli")),
  },
  {
    name: "protocol/ imports nothing of ours outside protocol/",
    forbids: (from, to) => under(from, "protocol") && !under(to, "protocol"),
  },
  {
    name: "sdk/ imports only sdk/ and protocol/",
    forbids: (from, to) => under(from, "sdk") && !under(to, "sdk", "protocol"),
  },
  {
    name: "core/ imports only core/ and protocol/",
    forbids: (from, to) => under(from, "core") && !under(to, "core", "protocol"),
  },
  {
    name: "server/ imports only server/, core/ and protocol/",
    forbids: (from, to) => under(from, "server") && !under(to, "server", "core", "protocol"),
  },
  {
    name: "cli/ reaches server/ only through server/mod.ts",
    forbids: (from, to) => under(from, "cli") && under(to, "server") && to !== "server/mod.ts",
  },
  {
    name: "plugin_cli/ imports neither server/ nor cli/",
    forbids: (from, to) => under(from, "plugin_cli") && under(to, "server", "cli"),
  },
  {
    name: "extension/ imports only extension/ and protocol/",
    forbids: (from, to) => under(from, "extension") && !under(to, "extension", "protocol"),
  },
  {
    name: "extension page/, panel/ and shared/ never import worker/",
    forbids: (from, to) =>
      under(from, `${EXT}/page`, `${EXT}/panel`, `${EXT}/shared`) && under(to, `${EXT}/worker`),
  },
  {
    name: "extension shared/ imports neither page/ nor panel/",
    forbids: (from, to) => under(from, `${EXT}/shared`) && under(to, `${EXT}/page`, `${EXT}/panel`),
  },
];

/** Tests, benches and test files beside the sources may import across layers. */
export function isTestFile(path: string): boolean {
  return under(path, "tests", "bench") || path.endsWith("_test.ts");
}

/** Every import of a non-test file that breaks one of `rules`. */
export function layerViolations(graph: ImportGraph, rules = LAYER_RULES): Violation[] {
  const found: Violation[] = [];
  for (const [from, edges] of graph) {
    if (isTestFile(from)) continue;
    for (const { specifier, target } of edges) {
      for (const rule of rules) {
        if (rule.forbids(from, target)) found.push({ rule: rule.name, from, specifier });
      }
    }
  }
  return found;
}

/** The path `specifier` (relative) names from `from`; undefined for a package or URL. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), specifier));
}

/**
 * One cycle per strongly connected group of files (Tarjan's algorithm), each as the path of files
 * that leads back to its first one. Test files count too: a cycle is a knot wherever it is.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const nodes = [...graph.keys()];
  const next = (f: string) => (graph.get(f) ?? []).map((e) => e.target).filter((t) => graph.has(t));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];

  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = new Set<string>();
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.add(w);
    } while (w !== v);
    if (group.size > 1 || next(v).includes(v)) cycles.push(cycleThrough(v, group, next));
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return cycles;
}

/** A shortest path from `start` back to itself inside `group` (breadth first). */
function cycleThrough(start: string, group: Set<string>, next: (f: string) => string[]): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next(v)) {
      if (!group.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
