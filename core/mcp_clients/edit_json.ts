/**
 * Putting hub's entry into an MCP client's JSON settings file (JSON with comments and trailing
 * commas, as VS Code and Claude Code write them), or taking it out, without touching anything else:
 * jsonc-parser's edit API changes only the bytes of hub's entry, so comments, formatting, key order
 * and every other server stay byte for byte. Keys of an existing entry that are not about how to
 * reach the server and are harmless (`disabled`, `timeout`, tool lists: KEPT_KEYS) are kept. Text
 * that does not parse, or whose servers key is not an object, is refused with where the problem is;
 * so is an existing entry with hub's name that hub did not write, unless forced.
 */
import {
  applyEdits,
  findNodeAtLocation,
  format,
  type FormattingOptions,
  getNodeValue,
  modify,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { jsonDepthProblem } from "../files/json_depth.ts";
import type { McpFileFormat } from "./clients.ts";
import { isHubEntry } from "./hub_entry.ts";
import {
  BOM,
  checkOwnEntry,
  type EditOptions,
  type EditOutcome,
  KEPT_KEYS,
  lineColumn,
  mergedEntry,
  plainValue,
  sameValue,
  SetupError,
  startEdit,
} from "./setup_error.ts";

/** Where a format keeps its servers: the path of the object whose keys are server names. */
export function serversPath(format: McpFileFormat): string[] {
  switch (format) {
    case "mcpServers":
    case "claudeCode":
      return ["mcpServers"];
    case "vscodeMcp":
      return ["servers"];
    case "vscodeSettings":
      return ["mcp", "servers"];
    default:
      throw new SetupError(`a ${format} file is not JSON; it is edited as TOML`);
  }
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false };

/** The parsed tree of `text` (without a BOM); throws a SetupError saying where it is broken. */
function parseOrRefuse(text: string): Node | undefined {
  const deep = jsonDepthProblem(text);
  if (deep) throw new SetupError(`the file does not parse: it ${deep}; hub did not change it`);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) {
    const { line, column } = lineColumn(text, errors[0].offset);
    const problem = printParseErrorCode(errors[0].error).replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase();
    throw new SetupError(
      `the file does not parse at line ${line}, column ${column} (${problem}); hub did not change it: fix it or move it away`,
      { line, column },
    );
  }
  return root;
}

/** The child of object `node` named `key`; refuses an object naming it twice. */
function child(node: Node, key: string, where: string): Node | undefined {
  const found = (node.children ?? []).filter((p) => p.children?.[0]?.value === key);
  if (found.length > 1) {
    throw new SetupError(`${where} names "${key}" twice; hub did not change the file`);
  }
  return found[0]?.children?.[1];
}

/** The servers object's node (undefined when missing); refuses one that is not an object. */
function serversNode(root: Node | undefined, path: string[]): Node | undefined {
  if (root === undefined) return undefined;
  if (root.type !== "object") {
    throw new SetupError(
      `the file holds a JSON ${root.type}, not an object; hub did not change it`,
    );
  }
  let node: Node | undefined = root;
  for (let i = 0; i < path.length && node; i++) {
    node = child(node, path[i], i === 0 ? "the file" : `"${path.slice(0, i).join(".")}"`);
    if (node && node.type !== "object") {
      throw new SetupError(
        `"${
          path.slice(0, i + 1).join(".")
        }" is a ${node.type}, not an object of servers; hub did not change the file`,
      );
    }
  }
  return node;
}

/** The file's own indentation and line ends, so that inserted text looks like the rest. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return indent.startsWith("\t")
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: Math.min(indent.length, 8), eol };
}

/** Whether `node` is an object holding nothing but white space (`{}`, `{\n  }`). */
function isBlankObject(text: string, node: Node): boolean {
  return text.slice(node.offset + 1, node.offset + node.length - 1).trim() === "";
}

/** `text` with the object at `path` written `{}` when nothing is left in it but white space. */
function collapseBlank(text: string, path: string[]): string {
  const node = findNodeAtLocation(parseTree(text, [], PARSE_OPTIONS)!, path);
  if (!node || node.type !== "object" || !isBlankObject(text, node) || node.length === 2) {
    return text;
  }
  return text.slice(0, node.offset) + "{}" + text.slice(node.offset + node.length);
}

/**
 * `text` with the blank object `node` holding `name: value`, laid out on lines of their own in the
 * file's style (jsonc-parser would put the new key right after the brace).
 */
function fillBlankObject(text: string, node: Node, name: string, value: unknown): string {
  const options = formattingOf(text);
  const unit = options.insertSpaces ? " ".repeat(options.tabSize ?? 2) : "\t";
  const lineStart = text.lastIndexOf("\n", node.offset) + 1;
  const base = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const eol = options.eol ?? "\n";
  const inner = `${JSON.stringify(name)}: ${JSON.stringify(value, null, unit)}`
    .replaceAll("\n", eol + base + unit);
  const filled = `{${eol}${base}${unit}${inner}${eol}${base}}`;
  return text.slice(0, node.offset) + filled + text.slice(node.offset + node.length);
}

/**
 * `text` with the value at `path` set (undefined: removed). jsonc-parser's own formatting of an
 * edit reaches the whole lines around it (it would reformat a neighbour on the same line), so the
 * edit is made unformatted and then only its own new text is formatted, in the file's style.
 */
function editInPlace(text: string, path: string[], value: unknown): string {
  const edits = modify(text, path, value, {});
  let after = applyEdits(text, edits);
  if (value === undefined) return after;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) {
    const start = e.offset, end = e.offset + e.content.length;
    const inside = format(after, { offset: start, length: end - start }, formattingOf(text))
      .filter((f) => f.offset >= start && f.offset + f.length <= end);
    after = applyEdits(after, inside);
  }
  return after;
}

/** Hub's entry as it is in `text` (undefined when absent), for telling what an update changes. */
export function readJsonEntry(text: string, format: McpFileFormat, name: string): unknown {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (body.trim() === "") return undefined;
  const servers = serversNode(parseOrRefuse(body), serversPath(format));
  const node = servers && child(servers, name, "the servers object");
  return node && plainValue(getNodeValue(node));
}

/**
 * The text with hub's entry `name` set to `entry` (null: removed), and what that did. Throws a
 * SetupError for text it will not edit. `before` is `text` as given; the caller writes `after`.
 */
export function editJsonEntry(
  text: string,
  format: McpFileFormat,
  name: string,
  entry: Record<string, unknown> | null,
  options: EditOptions = {},
): EditOutcome {
  const { bom, body } = startEdit(text, name);
  const path = serversPath(format);
  if (body.trim() === "" || body.replace(/\s/g, "") === "{}") {
    if (entry === null) return { kind: "absent", before: text, after: text };
    return { kind: "added", before: text, after: bom + newFile(path, name, entry) };
  }
  const servers = serversNode(parseOrRefuse(body), path);
  const node = servers && child(servers, name, "the servers object");
  const edit = (t: string, at: string[], value: unknown) => editInPlace(t, at, value);
  if (node) {
    const value = getNodeValue(node);
    checkOwnEntry(value, name, isHubEntry(value), options);
  }
  let after = body;
  if (entry === null) {
    if (!node) return { kind: "absent", before: text, after: text };
    after = collapseBlank(edit(body, [...path, name], undefined), path);
    return { kind: "removed", before: text, after: bom + after };
  }
  if (!node && servers && isBlankObject(body, servers)) {
    after = fillBlankObject(body, servers, name, entry);
    return { kind: "added", before: text, after: bom + after };
  }
  if (!node || node.type !== "object") {
    after = edit(body, [...path, name], entry);
    return { kind: node ? "updated" : "added", before: text, after: bom + after };
  }
  const existing = getNodeValue(node) as Record<string, unknown>;
  for (const [key, value] of Object.entries(entry)) {
    if (!sameValue(existing[key], value)) after = edit(after, [...path, name, key], value);
  }
  for (const key of Object.keys(existing)) {
    if (!KEPT_KEYS.has(key) && !(key in entry)) {
      after = edit(after, [...path, name, key], undefined);
    }
  }
  if (after === body) return { kind: "up-to-date", before: text, after: text };
  const check = readJsonEntry(after, format, name);
  if (!sameValue(check, mergedEntry(existing, entry))) {
    throw new SetupError(`hub could not edit its entry in place; hub did not change the file`);
  }
  return { kind: "updated", before: text, after: bom + after };
}

/** A new file holding only hub's entry, two-space indented. */
function newFile(path: string[], name: string, entry: Record<string, unknown>): string {
  let value: Record<string, unknown> = { [name]: entry };
  for (const key of [...path].reverse()) value = { [key]: value };
  return `${JSON.stringify(value, null, 2)}\n`;
}
