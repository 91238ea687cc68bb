/**
 * The MCP client check: reads each client's config file (bounded in size; JSON with comments and
 * trailing commas accepted, as VS Code writes them; Codex's TOML; nested at most MAX_JSON_DEPTH
 * deep), finds the entries that point at this hub and says, per client and file, which are current
 * and which are stale; the fix for stale ones is `hub setup <client>`. A missing file is normal; a
 * file too big, unreadable or broken is a warning, never a crash.
 */
import { parse, type ParseError } from "jsonc-parser";
import { parse as parseToml, TomlError } from "smol-toml";
import { posix, win32 } from "node:path";
import { describeJsonError, loadJsonErrors } from "../../core/files/json_errors.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../../core/files/json_depth.ts";
import { readBoundedText } from "../../core/files/bounded_read.ts";
import { clip } from "../../protocol/clip.ts";
import { boundLines, type Check, pass, problem } from "./report.ts";
import type { ClientFile, ClientId } from "../../core/mcp_clients/clients.ts";
import { classify, entriesOf, type HubTarget, type McpEntry, type Verdict } from "./mcp_entries.ts";

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
  /** How the entry reaches hub, as `hub setup --mode` names it. */
  mode?: "http" | "gateway" | "stdio";
}

/** An entry's `hub setup` mode: a URL to /mcp/gateway or a bridge with --gateway is gateway. */
function modeOfEntry(entry: McpEntry): Finding["mode"] {
  if (entry.url !== undefined) return /\/mcp\/gateway\/?$/.test(entry.url) ? "gateway" : "http";
  return entry.args.includes("--gateway") ? "gateway" : "stdio";
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

/** Codex's config.toml; nesting bounded like JSON's, `__proto__`-like keys dropped. */
function parseTomlFile(text: string): { doc?: unknown; error?: string } {
  try {
    return { doc: parseToml(text, { maxDepth: MAX_JSON_DEPTH, unsafeKeyBehaviour: "drop" }) };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return { error: `not valid TOML at line ${error.line}, column ${error.column}` };
  }
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
  const { doc, error } = file.format === "codexToml" ? parseTomlFile(text) : parseJsonc(text);
  if (error !== undefined) {
    out.problems.push({ file, why: error });
    return;
  }
  for (const entry of entriesOf(file.format, doc)) {
    const verdict = classify(entry, target);
    if (verdict) out.findings.push({ file, name: entry.name, verdict, mode: modeOfEntry(entry) });
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

/** A stale entry: its file and its name (a bare file means the name "hub"). */
export type StaleEntry = ClientFile | { file: ClientFile; name: string; mode?: Finding["mode"] };

/** One `hub setup` run: the clients of one scope whose entry has one name. */
export interface SetupRun {
  ids: ClientId[];
  project: boolean;
  name: string;
  /** The entry's mode when not http (`hub setup` keeps it anyway; said so the command is plain). */
  mode?: "gateway" | "stdio";
}

/** The names `hub setup --name` takes (cli/setup/setup.ts checks the same). */
export const SETUP_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const entryOf = (s: StaleEntry) =>
  "file" in s ? s : { file: s, name: "hub", mode: undefined as Finding["mode"] };

/** Whether `hub setup` can rewrite a stale entry: a file it writes, a name `--name` takes. */
export const canSetup = (s: StaleEntry) => {
  const { file, name } = entryOf(s);
  return file.id !== undefined && SETUP_NAME.test(name);
};

/** The `hub setup` runs that rewrite stale entries: one per scope and entry name. */
export function setupRuns(stale: StaleEntry[]): SetupRun[] {
  const runs: SetupRun[] = [];
  for (const { file, name, mode: m } of stale.filter(canSetup).map(entryOf)) {
    const project = file.scope === "project";
    // A stdio-only client (Claude Desktop) is stdio in any case: no --mode for it.
    const plain = m === "http" || (m === "stdio" && !file.transports.includes("http"));
    const mode = plain ? undefined : m;
    let run = runs.find((r) => r.project === project && r.name === name && r.mode === mode);
    if (!run) runs.push(run = { ids: [], project, name, ...(mode ? { mode } : {}) });
    if (!run.ids.includes(file.id!)) run.ids.push(file.id!);
  }
  // User scope first, then the project's; "hub" before other names.
  const rank = (r: SetupRun) => (r.project ? 2 : 0) + (r.name === "hub" ? 0 : 1);
  return runs.sort((a, b) => rank(a) - rank(b));
}

/** The `hub setup` command line of a run (`--name` when not "hub"). */
export function setupCommandLine(run: SetupRun): string {
  const name = run.name === "hub" ? "" : ` --name ${run.name}`;
  const mode = run.mode ? ` --mode ${run.mode}` : "";
  return `hub setup${run.project ? " --project" : ""}${name}${mode} ${run.ids.join(" ")}`;
}

/** The `hub setup` command lines that rewrite stale entries (per scope and name), by client id. */
export function setupCommands(stale: StaleEntry[]): string[] {
  return setupRuns(stale).map(setupCommandLine);
}

/** The fix for stale entries: `hub setup <client>`; by hand for files setup does not write. */
function staleFix(stale: StaleEntry[]): string {
  const commands = setupCommands(stale).map((c) => `"${c}"`);
  const manual = [
    ...new Set(stale.filter((s) => !canSetup(s)).map((s) => entryOf(s).file.path)),
  ];
  const byHand = manual.length === 0
    ? ""
    : `replace the hub entry in ${clip(manual[0], 160)}${
      manual.length > 1 ? ` (and ${manual.length - 1} other file(s))` : ""
    } with the block "hub start --show-config" prints`;
  const run = commands.length
    ? `run ${commands.join(" and ")} (it updates hub's entry in place)`
    : "";
  return `${[run, byHand].filter(Boolean).join("; ")}, then restart that client`;
}

export function mcpClientsCheck(scan: ScanResult, looked: number): Check {
  const id = "mcp_clients", title = "MCP clients";
  const stale = scan.findings.filter((f) => f.verdict.kind === "stale");
  const good = scan.findings.filter((f) => f.verdict.kind !== "stale");
  const detail = lines(scan);
  if (stale.length > 0) {
    return problem(
      "warn",
      id,
      title,
      [`${stale.length} stale hub entr${stale.length === 1 ? "y" : "ies"}`, ...detail].join("\n"),
      staleFix(stale),
    );
  }
  if (good.length === 0) {
    const head = `no MCP client is set up for this hub (looked in ${looked} files)`;
    return problem(
      "warn",
      id,
      title,
      [head, ...detail].join("\n"),
      'run "hub setup" to connect your MCP clients (or paste a block "hub start --show-config" ' +
        "prints into a client's settings)",
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

/**
 * Whether a client could spawn a command here: an absolute path to a file, or a bare name found in
 * a PATH folder (Windows: with a PATHEXT extension). A relative path depends on the client's
 * folder: counted as found.
 */
export function commandExists(
  command: string,
  env: (name: string) => string | undefined,
  os: typeof Deno.build.os = Deno.build.os,
  isFile: (path: string) => boolean = fileExists,
): boolean {
  const p = os === "windows" ? win32 : posix;
  if (p.isAbsolute(command)) return isFile(command);
  if (/[/\\]/.test(command)) return true;
  const exts = os === "windows"
    ? ["", ...(env("PATHEXT") ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)]
    : [""];
  const dirs = (env("PATH") ?? (os === "windows" ? env("Path") : undefined) ?? "")
    .split(os === "windows" ? ";" : ":").filter((d) => d && p.isAbsolute(d));
  return dirs.some((dir) => exts.some((ext) => isFile(p.join(dir, command + ext))));
}

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
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
