/**
 * The layering of the repository as checkable rules over an import graph (file → the files it
 * imports, paths relative to the repository root, `/`-separated; relative imports and workspace
 * names such as `@tabhub/sdk` both resolve to files), and a search for import cycles.
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
  /** The rule holds for test files too (most rules let tests import across layers). */
  coversTests?: boolean;
}

export interface Violation {
  rule: string;
  from: string;
  specifier: string;
}

const under = (path: string, ...dirs: string[]) => dirs.some((d) => path.startsWith(`${d}/`));

/** The top folder a path is in (its layer), or "" for a file at the root. */
const layerOf = (path: string) => path.includes("/") ? path.slice(0, path.indexOf("/")) : "";

/** A file whose name starts with `_` is private to its folder. */
const isPrivate = (path: string) => posix.basename(path).startsWith("_");

const EXT = "extension/src";

/** The one file of server/net/ the rest of server/ may import (Deno.listen, Deno.serve behind it). */
export const NET_DOOR = "server/net/listen.ts";

/** The SDK's public doors (sdk/deno.json "exports"); the layering test checks they agree. */
export const SDK_DOORS = ["sdk/mod.ts", "sdk/describe.ts"];

/**
 * The layers inside server/, bottom first. Each entry is a folder (`calls/`) or a loose file
 * (`hub.ts`) of server/; entries on one line are siblings. A server file imports its own entry and
 * the layers below it: never a layer above, never a sibling (type-only imports count too).
 * docs/architecture.md ("Layers") says what each one is for.
 */
export const SERVER_LAYERS: string[][] = [
  ["log/"],
  ["net/", "http/", "memory_settle.ts"],
  ["audit/", "files/"],
  ["permissions/"],
  ["plugins/"],
  ["browser_tools/", "management/"],
  ["calls/"],
  ["ws/"],
  ["changes/"],
  ["extension/"],
  ["mcp/", "telemetry/", "dev/"],
  ["health.ts"],
  ["routes.ts"],
  ["hub.ts"],
  ["mod.ts"],
];

/** Where a server file sits: its layer (0 = bottom) and its entry; undefined outside server/. */
export function serverLayerOf(path: string): { layer: number; entry: string } | undefined {
  if (!under(path, "server")) return undefined;
  const rest = path.slice("server/".length);
  const entry = rest.includes("/") ? rest.slice(0, rest.indexOf("/") + 1) : rest;
  const layer = SERVER_LAYERS.findIndex((entries) => entries.includes(entry));
  return { layer, entry };
}

/** True when a server file importing another runs up (or sideways across) the server layers. */
function breaksServerLayers(from: string, to: string): boolean {
  const a = serverLayerOf(from), b = serverLayerOf(to);
  if (a === undefined || b === undefined || a.entry === b.entry) return false;
  return a.layer < 0 || b.layer < 0 || b.layer >= a.layer;
}

/**
 * The arrows between server entries: entry → the entries its source files import (test files left
 * out, as the rules leave them out), each list ordered from the highest layer down.
 */
const fileIn = (entry: string) => `server/${entry}${entry.endsWith("/") ? "x.ts" : ""}`;

export function serverArrows(graph: ImportGraph): Map<string, string[]> {
  const arrows = new Map<string, Set<string>>();
  for (const [from, edges] of graph) {
    const a = serverLayerOf(from);
    if (a === undefined || isTestFile(from)) continue;
    const targets = arrows.get(a.entry) ?? arrows.set(a.entry, new Set()).get(a.entry)!;
    for (const { target } of edges) {
      const b = serverLayerOf(target);
      if (b !== undefined && b.entry !== a.entry) targets.add(b.entry);
    }
  }
  const rank = (entry: string) => serverLayerOf(fileIn(entry))!.layer;
  return new Map(
    [...arrows].map(([entry, targets]) => [entry, [...targets].sort((x, y) => rank(y) - rank(x))]),
  );
}

/**
 * The structure drawing: the server layers top first, each entry with the entries it imports. An
 * arrow that runs up or sideways is marked `↑` (the layering test fails on it).
 */
export function serverLayerDrawing(graph: ImportGraph): string {
  const arrows = serverArrows(graph);
  const lines = ["server/ layers, top first; each entry imports only the layers below it:"];
  for (let layer = SERVER_LAYERS.length - 1; layer >= 0; layer--) {
    for (const entry of SERVER_LAYERS[layer]) {
      const targets = (arrows.get(entry) ?? []).map((t) =>
        breaksServerLayers(fileIn(entry), fileIn(t)) ? `↑${t}` : t
      );
      const name = `${String(layer + 1).padStart(2)} ${entry}`.padEnd(22);
      lines.push(`${name} → ${targets.join(" ") || "(nothing of server/)"}`);
    }
  }
  const unplaced = [...arrows.keys()].filter((e) => serverLayerOf(fileIn(e))!.layer < 0);
  if (unplaced.length > 0) lines.push(`in no layer: ${unplaced.join(" ")}`);
  return lines.join("\n");
}

export const SERVER_LAYER_RULE =
  "inside server/, an import runs down SERVER_LAYERS (never up, never to a sibling)";

export const LAYER_RULES: LayerRule[] = [
  {
    name: "server/ and extension/ never import each other",
    forbids: (from, to) =>
      (under(from, "server") && under(to, "extension")) ||
      (under(from, "extension") && under(to, "server")),
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
    name: SERVER_LAYER_RULE,
    forbids: breaksServerLayers,
  },
  {
    name:
      "server/net/ (the runtime glue) has one door: the rest of server/ imports only net/listen.ts",
    forbids: (from, to) =>
      under(from, "server") && !under(from, "server/net") && under(to, "server/net") &&
      to !== NET_DOOR,
  },
  {
    name: "cli/ imports only cli/, server/mod.ts, core/ and protocol/",
    forbids: (from, to) =>
      under(from, "cli") && !under(to, "cli", "core", "protocol") && to !== "server/mod.ts",
  },
  {
    name: "plugin_cli/ imports only plugin_cli/, core/, protocol/ and the SDK's doors",
    forbids: (from, to) =>
      under(from, "plugin_cli") && !under(to, "plugin_cli", "core", "protocol") &&
      !SDK_DOORS.includes(to),
  },
  {
    name: "main.ts imports only cli/, core/ and protocol/",
    forbids: (from, to) => from === "main.ts" && !under(to, "cli", "core", "protocol"),
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
  {
    name: "a _ file is private to its folder (and to test files of its top folder)",
    coversTests: true,
    forbids: (from, to) =>
      isPrivate(to) && posix.dirname(from) !== posix.dirname(to) &&
      !(isTestFile(from) && layerOf(from) === layerOf(to)),
  },
];

/** Tests, benches and test files beside the sources may import across layers. */
export function isTestFile(path: string): boolean {
  return under(path, "tests", "bench") || path.endsWith("_test.ts");
}

/** Every import that breaks one of `rules` (test files only against the rules that cover them). */
export function layerViolations(graph: ImportGraph, rules = LAYER_RULES): Violation[] {
  const found: Violation[] = [];
  for (const [from, edges] of graph) {
    const applying = isTestFile(from) ? rules.filter((r) => r.coversTests) : rules;
    for (const { specifier, target } of edges) {
      for (const rule of applying) {
        if (rule.forbids(from, target)) found.push({ rule: rule.name, from, specifier });
      }
    }
  }
  return found;
}

/** A workspace member's deno.json, as far as resolving its name goes. */
export interface MemberConfig {
  name?: string;
  exports?: string | Record<string, string>;
}

/** The workspace's import names: each member's folder, and each exported name's file. */
export interface Workspace {
  /** Member name (`@hub/protocol`) → its folder ("" for the root). */
  members: Map<string, string>;
  /** Exported name (`@tabhub/sdk`, `@hub/protocol/errors`) → the file it names. */
  exports: Map<string, string>;
}

/**
 * The import names of workspace members (`dir`: the member's folder, "" for the root): its name for
 * its "." export, and name + subpath for each other export.
 */
export function workspaceOf(members: { dir: string; config: MemberConfig }[]): Workspace {
  const workspace: Workspace = { members: new Map(), exports: new Map() };
  for (const { dir, config } of members) {
    if (!config.name) continue;
    workspace.members.set(config.name, dir);
    const exports = typeof config.exports === "string" ? { ".": config.exports } : config.exports;
    for (const [subpath, file] of Object.entries(exports ?? {})) {
      workspace.exports.set(posix.join(config.name, subpath), posix.join(dir, file));
    }
  }
  return workspace;
}

const NO_WORKSPACE: Workspace = { members: new Map(), exports: new Map() };

/**
 * The repository path `specifier` names from `from`: a relative path, or a workspace name
 * (`workspace`); undefined for anything else (npm:, node:, packages of the import map). A subpath
 * a member does not export resolves to the bare path in its folder, which is no file, so the
 * import reads as missing.
 */
export function resolveImport(
  from: string,
  specifier: string,
  workspace = NO_WORKSPACE,
): string | undefined {
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    return posix.normalize(posix.join(posix.dirname(from), specifier));
  }
  const exported = workspace.exports.get(specifier);
  if (exported !== undefined) return exported;
  for (const [name, dir] of workspace.members) {
    if (specifier.startsWith(`${name}/`)) {
      return posix.join(dir, specifier.slice(name.length + 1));
    }
  }
  return undefined;
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
