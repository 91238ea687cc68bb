/**
 * The MCP client check: reads each client's config file (bounded in size; JSON with comments and
 * trailing commas accepted, as VS Code writes them; nested at most MAX_JSON_DEPTH deep), finds the entries that point at this hub and
 * says, per client and file, which are current and which are stale. A missing file is normal; a
 * file too big, unreadable or broken is a warning, never a crash.
 */
import { parse, type ParseError } from "jsonc-parser";
import { describeJsonError, loadJsonErrors } from "../../core/files/json_errors.ts";
import { jsonDepthProblem } from "../../core/files/json_depth.ts";
import { readBoundedText } from "../../core/files/bounded_read.ts";
import { clip } from "../../protocol/clip.ts";
import { boundLines, type Check, pass, problem } from "./report.ts";
import type { ClientFile } from "../../core/mcp_clients/clients.ts";
import { classify, entriesOf, type HubTarget, type Verdict } from "./mcp_entries.ts";

export const MAX_CONFIG_BYTES = 5 * 1024 * 1024;
const MAX_FOUND_LINES = 12;

export interface FileAccess {
  /** The file's size, or undefined when it does not exist. Throws when it cannot be looked at. */
  size(path: string): Promise<number | undefined>;
  readText(path: string): Promise<string>;
}

export interface Finding {
  file: ClientFile;
  name: string;
  verdict: Verdict;
}

export interface ScanResult {
  findings: Finding[];
  /** Files that exist but could not be used, with why. */
  problems: { file: ClientFile; why: string }[];
}

function parseJsonc(text: string): { doc?: unknown; error?: string } {
  // jsonc-parser recurses per level: a deeper text would end it (and doctor) with a RangeError.
  const deep = jsonDepthProblem(text);
  if (deep) return { error: `not used: it ${deep}` };
  const errors: ParseError[] = [];
  const doc = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length === 0) return { doc };
  return { error: `not valid JSON${describeJsonError(text, "", { jsonc: true })}` };
}

async function scanFile(file: ClientFile, target: HubTarget, fs: FileAccess, out: ScanResult) {
  let text: string;
  try {
    const size = await fs.size(file.path);
    if (size === undefined) return;
    if (size > MAX_CONFIG_BYTES) {
      out.problems.push({ file, why: `skipped: ${(size / 1048576).toFixed(1)} MB, over 5 MB` });
      return;
    }
    text = await fs.readText(file.path);
  } catch (error) {
    out.problems.push({ file, why: `cannot be read (${clip((error as Error).message, 120)})` });
    return;
  }
  if (text.trim() === "") return;
  await loadJsonErrors().catch(() => {}); // described with V8's message then
  const { doc, error } = parseJsonc(text);
  if (error !== undefined) {
    out.problems.push({ file, why: error });
    return;
  }
  for (const entry of entriesOf(file.format, doc)) {
    const verdict = classify(entry, target);
    if (verdict) out.findings.push({ file, name: entry.name, verdict });
  }
}

/** Reads every file and classifies every entry that points at this hub. */
export async function scanClientFiles(
  files: ClientFile[],
  target: HubTarget,
  fs: FileAccess,
): Promise<ScanResult> {
  const out: ScanResult = { findings: [], problems: [] };
  for (const file of files) await scanFile(file, target, fs, out);
  return out;
}

const describe = (v: Verdict) =>
  v.kind === "current"
    ? `current (${v.how})`
    : v.kind === "stale"
    ? `STALE: ${v.why}`
    : `not checked: ${v.why}`;

function lines(scan: ScanResult): string[] {
  const all = [
    ...scan.findings.map((f) =>
      `${f.file.client} ${clip(f.file.path, 120)} "${clip(f.name, 60)}": ${describe(f.verdict)}`
    ),
    ...scan.problems.map((p) => `${p.file.client} ${clip(p.file.path, 120)}: ${p.why}`),
  ];
  return boundLines(all, MAX_FOUND_LINES);
}

export function mcpClientsCheck(scan: ScanResult, looked: number): Check {
  const id = "mcp_clients", title = "MCP clients";
  const stale = scan.findings.filter((f) => f.verdict.kind === "stale");
  const good = scan.findings.filter((f) => f.verdict.kind !== "stale");
  const detail = lines(scan);
  if (stale.length > 0) {
    const paths = [...new Set(stale.map((f) => f.file.path))];
    return problem(
      "warn",
      id,
      title,
      [`${stale.length} stale hub entr${stale.length === 1 ? "y" : "ies"}`, ...detail].join("\n"),
      `replace the hub entry in ${clip(paths[0], 160)}${
        paths.length > 1 ? ` (and ${paths.length - 1} other file(s))` : ""
      } with the block "hub start --show-config" prints, then restart that client`,
    );
  }
  if (good.length === 0) {
    const head = `no MCP client is set up for this hub (looked in ${looked} files)`;
    return problem(
      "warn",
      id,
      title,
      [head, ...detail].join("\n"),
      'run "hub start --show-config" and paste a block into your MCP client\'s config',
    );
  }
  const clients = [...new Set(good.map((f) => f.file.client))].join(", ");
  const summary = `${clients}: ${good.length} hub entr${good.length === 1 ? "y" : "ies"} current`;
  if (scan.problems.length > 0) {
    return problem(
      "warn",
      id,
      title,
      [summary, ...detail].join("\n"),
      `fix or remove ${clip(scan.problems[0].file.path, 160)} (${clip(scan.problems[0].why, 80)})`,
    );
  }
  return pass(id, title, [summary, ...detail].join("\n"));
}

export const realFiles: FileAccess = {
  async size(path) {
    try {
      const info = await Deno.stat(path);
      if (!info.isFile) throw new Error("not a file");
      return info.size;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  },
  // Bounded: a file swapped for a FIFO or a device after `size` is refused, not read.
  readText: (path) => readBoundedText(path, { maxBytes: MAX_CONFIG_BYTES }),
};
