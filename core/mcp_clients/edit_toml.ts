/**
 * Putting hub's entry into Codex's `config.toml` (`[mcp_servers.<name>]`), or taking it out, without
 * touching anything else. The file is parsed with smol-toml to check it and to read the entry; the
 * edit itself is textual: only the lines of hub's table (its header to its last key, sub-tables
 * such as `[mcp_servers.hub.http_headers]` included) are replaced, inserted or removed, so every
 * other table, comment and blank line stays byte for byte. The result is parsed again and must
 * equal the old file with only hub's entry changed; anything else is refused, never written.
 * An entry written in a form hub does not edit by lines (an inline table, dotted keys) is refused
 * with what to do instead.
 */
import { parse, stringify, TomlError } from "smol-toml";
import { MAX_JSON_DEPTH } from "../files/json_depth.ts";
import {
  checkServerName,
  type EditOutcome,
  mergedEntry,
  plainValue,
  sameValue,
  SetupError,
} from "./setup_error.ts";
import { type TomlLine, tomlLines } from "./toml_lines.ts";

const BOM = "\uFEFF";
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
    blocks.push(blockAt(lines, i));
  });
  return blocks;
}

/** The TOML of hub's tables, with the file's line ends. */
function blockText(name: string, entry: Table, eol: string): string {
  const toml = stringify({ [SERVERS]: { [name]: entry } }).replace(/^\n+/, "").trimEnd();
  return `${toml}\n`.replaceAll("\n", eol);
}

/** `body` with the lines of `block` taken out, and the blank line that set it apart. */
function removeBlock(body: string, lines: TomlLine[], block: Block, replacement = ""): string {
  let start = lines[block.first].start;
  let end = lines[block.last].end;
  const after = lines[block.last + 1];
  if (
    replacement === "" && lines[block.first - 1]?.kind === "blank" &&
    (after === undefined || after.kind === "blank")
  ) start = lines[block.first - 1].start;
  else if (replacement === "" && block.first === 0 && after?.kind === "blank") end = after.end;
  return body.slice(0, start) + replacement + body.slice(end);
}

/** `body` with hub's tables inserted after the last `[mcp_servers…]` table, or at the end. */
function insertBlock(body: string, lines: TomlLine[], block: string, eol: string): string {
  const lastServers = lines.findLastIndex(isServersHeader);
  const at = lastServers === -1 ? body.length : lines[blockAt(lines, lastServers).last].end;
  const head = body.slice(0, at);
  const lineBreak = head === "" || head.endsWith("\n") ? "" : eol;
  const gap = head.trim() === "" ? "" : eol;
  return head + lineBreak + gap + block + body.slice(at);
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
): EditOutcome {
  checkServerName(name);
  const bom = text.startsWith(BOM) ? BOM : "";
  const body = text.slice(bom.length);
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
  const merged = entry === null ? undefined : mergedEntry(existing, entry);
  if (merged && existing !== undefined && sameValue(existing, merged)) {
    return { kind: "up-to-date", before: text, after: text };
  }
  let after = body;
  const replacement = merged ? blockText(name, merged, eol) : "";
  for (const [i, block] of [...blocks.entries()].reverse()) {
    after = removeBlock(after, lines, block, i === 0 ? replacement : "");
  }
  if (merged && blocks.length === 0) after = insertBlock(body, lines, replacement, eol);
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
