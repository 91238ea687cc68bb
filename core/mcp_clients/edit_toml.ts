/**
 * Putting hub's entry into Codex's `config.toml` (`[mcp_servers.<name>]`), or taking it out, without
 * touching anything else. The file is parsed with smol-toml to check it and to read the entry; the
 * edit itself is textual: only the lines of hub's table (its header to its last key, sub-tables
 * such as `[mcp_servers.hub.http_headers]` included) are replaced, inserted or removed, so every
 * other table, comment and blank line stays byte for byte. The result is parsed again and must
 * equal the old file with only hub's entry changed; anything else is refused, never written.
 * An entry written in a form hub does not edit by lines (an inline table, dotted keys) is refused
 * with what to do instead; so is an existing entry with hub's name that hub did not write, unless
 * forced.
 */
import { parse, stringify, TomlError } from "smol-toml";
import { MAX_JSON_DEPTH } from "../files/json_depth.ts";
import { isHubEntry } from "./hub_entry.ts";
import {
  BOM,
  checkOwnEntry,
  type EditOptions,
  type EditOutcome,
  mergedEntry,
  plainValue,
  sameValue,
  SetupError,
  startEdit,
} from "./setup_error.ts";
import { type TomlLine, tomlLines } from "./toml_lines.ts";

const SERVERS = "mcp_servers";

type Table = Record<string, unknown>;

/** Big integers kept exact (they are compared and may be written back); nesting bounded. */
const PARSE_OPTIONS = { integersAsBigInt: "asNeeded", maxDepth: MAX_JSON_DEPTH } as const;

const isTable = (value: unknown): value is Table =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The parsed file; throws a SetupError saying where it is broken. */
function parseOrRefuse(text: string): Table {
  try {
    return parse(text, PARSE_OPTIONS) as Table;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const { line, column } = error;
    const problem = error.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    throw new SetupError(
      `the file does not parse at line ${line}, column ${column} (${problem}); hub did not change it: fix it or move it away`,
      { line, column },
    );
  }
}

/** The servers table of a parsed file (undefined when missing); refuses one that is not a table. */
function serversOf(doc: Table): Table | undefined {
  const servers = doc[SERVERS];
  if (servers === undefined || isTable(servers)) return servers;
  throw new SetupError(`"${SERVERS}" is not a table of servers; hub did not change the file`);
}

/** Hub's entry as it is in `text` (undefined when absent), for telling what an update changes. */
export function readTomlEntry(text: string, name: string): unknown {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  return plainValue(serversOf(parseOrRefuse(body))?.[name]);
}

/** Lines `first..last` of one table of hub's entry: its header to its last key. */
interface Block {
  first: number;
  last: number;
}

/** The table (header to last content line) starting at header line `i`. */
function blockAt(lines: TomlLine[], i: number): Block {
  let next = i + 1;
  while (next < lines.length && lines[next].kind !== "header") next++;
  let last = next - 1;
  while (last > i && lines[last].kind !== "content") last--;
  return { first: i, last };
}

const isServersHeader = (line: TomlLine) => line.kind === "header" && line.path![0] === SERVERS;

/** The tables of hub's entry `name`; refuses an array of tables under that name. */
function entryBlocks(lines: TomlLine[], name: string): Block[] {
  const blocks: Block[] = [];
  lines.forEach((line, i) => {
    if (!isServersHeader(line) || line.path!.length < 2 || line.path![1] !== name) return;
    if (line.array) {
      throw new SetupError(
        `[[${SERVERS}.${name}]] is an array of tables, not a server; hub did not change the file`,
      );
    }
    const block = blockAt(lines, i);
    const previous = blocks[blocks.length - 1];
    const between = previous ? lines.slice(previous.last + 1, block.first) : [];
    if (previous && between.every((l) => l.kind === "blank" || l.kind === "comment")) {
      previous.last = block.last; // hub's tables one after another are one stretch
    } else blocks.push(block);
  });
  return blocks;
}

/** The TOML of hub's tables, with the file's line ends. */
function blockText(name: string, entry: Table, eol: string): string {
  const toml = stringify({ [SERVERS]: { [name]: entry } }).replace(/^\n+/, "").trimEnd();
  return `${toml}\n`.replaceAll("\n", eol);
}

/** A stretch of `body` to replace: [start, end) and its new text. */
interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * The stretch that takes `block` out, with one blank line beside it: the one after it, else (at
 * the end of the file or before a non-blank line) the one before. This undoes `insertBlock`.
 */
function removal(lines: TomlLine[], block: Block): Splice {
  const before = lines[block.first - 1], after = lines[block.last + 1];
  if (after?.kind === "blank") return { start: lines[block.first].start, end: after.end, text: "" };
  const start = before?.kind === "blank" ? before.start : lines[block.first].start;
  return { start, end: lines[block.last].end, text: "" };
}

/** `body` with `splices` made; overlapping removals are joined into one. */
function applySplices(body: string, splices: Splice[]): string {
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  const joined: Splice[] = [];
  for (const splice of sorted) {
    const last = joined[joined.length - 1];
    if (last && splice.start < last.end) {
      last.end = Math.max(last.end, splice.end);
      last.text += splice.text;
    } else joined.push({ ...splice });
  }
  let out = body;
  for (const { start, end, text } of joined.reverse()) {
    out = out.slice(0, start) + text + out.slice(end);
  }
  return out;
}

/**
 * Where hub's new tables go: after the last `[mcp_servers…]` table, or at the end; set apart by a
 * blank line before them, or after them when a non-blank line follows.
 */
function insertion(body: string, lines: TomlLine[], block: string, eol: string): Splice {
  const lastServers = lines.findLastIndex(isServersHeader);
  const lastLine = lastServers === -1 ? lines.length - 1 : blockAt(lines, lastServers).last;
  const at = lastLine === -1 ? 0 : lines[lastLine].end;
  const next = lines[lastLine + 1];
  const head = body.slice(0, at);
  const lineBreak = head === "" || head.endsWith("\n") ? "" : eol;
  if (next && next.kind !== "blank") return { start: at, end: at, text: lineBreak + block + eol };
  const gap = head.trim() === "" ? "" : eol;
  return { start: at, end: at, text: lineBreak + gap + block };
}

/** The parsed file with hub's entry set (or removed), an empty servers table left out. */
function normalized(doc: Table, name: string, entry: Table | undefined): Table {
  const servers = { ...serversOf(doc) };
  if (entry === undefined) delete servers[name];
  else servers[name] = entry;
  const out: Table = { ...doc, [SERVERS]: servers };
  if (Object.keys(servers).length === 0) delete out[SERVERS];
  return out;
}

/**
 * The text with hub's entry `name` set to `entry` (null: removed), and what that did. Throws a
 * SetupError for text it will not edit. `before` is `text` as given; the caller writes `after`.
 */
export function editTomlEntry(
  text: string,
  name: string,
  entry: Record<string, unknown> | null,
  options: EditOptions = {},
): EditOutcome {
  const { bom, body } = startEdit(text, name);
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  const doc = parseOrRefuse(body);
  const existing = serversOf(doc)?.[name];
  const lines = tomlLines(body);
  const blocks = entryBlocks(lines, name);
  if (existing !== undefined && (blocks.length === 0 || !isTable(existing))) {
    throw new SetupError(
      `${SERVERS}.${name} is written as an inline table or with dotted keys, which hub does not edit; write it as a [${SERVERS}.${name}] table or remove it, then run hub setup again`,
    );
  }
  if (entry === null && existing === undefined) {
    return { kind: "absent", before: text, after: text };
  }
  checkOwnEntry(existing, name, isHubEntry(existing), options);
  const merged = entry === null ? undefined : mergedEntry(existing, entry);
  if (merged && existing !== undefined && sameValue(existing, merged)) {
    return { kind: "up-to-date", before: text, after: text };
  }
  const tables = merged ? blockText(name, merged, eol) : "";
  const splices = blocks.map((block, i) =>
    i === 0 && merged
      ? { start: lines[block.first].start, end: lines[block.last].end, text: tables }
      : removal(lines, block)
  );
  if (merged && blocks.length === 0) splices.push(insertion(body, lines, tables, eol));
  const after = applySplices(body, splices);
  const check = (() => {
    try {
      return parse(after, PARSE_OPTIONS) as Table;
    } catch {
      return undefined;
    }
  })();
  if (!check || !sameValue(normalized(check, name, merged), normalized(doc, name, merged))) {
    throw new SetupError(
      `hub could not edit [${SERVERS}.${name}] without changing other tables; hub did not change the file: edit it by hand`,
    );
  }
  const kind = entry === null ? "removed" : existing === undefined ? "added" : "updated";
  return { kind, before: text, after: bom + after };
}
