/**
 * The outline model of `page.snapshot` (dom_snapshot.ts builds it from the DOM) and everything
 * done to it without a DOM: joining text runs, dropping text that repeats its line's name, folding
 * a clickable wrapper's short text into its name, the `interactiveOnly` filter, and writing the
 * lines (`"  ".repeat(depth) + "- " + …`) with their refs. The line format is browser_snapshot's
 * contract (issue 29): a page's strings only ever appear quoted (quoted: `"` and `\` escaped, line
 * breaks folded) or as the rest of a `- text:` line (line breaks folded), so a page cannot start
 * a line of its own.
 */
import {
  NAME_MAX_CHARS,
  SNAPSHOT_DOC_MAX_CHARS,
  SNAPSHOT_DOC_MAX_LINES,
} from "../../../protocol/browser_methods/dom_limits.ts";
import { cutLine, foldLine } from "../../../protocol/browser_methods/outline_header.ts";
import { quoted } from "./snapshot_quote.ts";

/** Longest text line, in characters (the cut one ends with `…`). */
export const TEXT_MAX_CHARS = 1_000;

/**
 * The last line of a document's outline whose walk stopped at SNAPSHOT_DOC_MAX_LINES or
 * SNAPSHOT_DOC_MAX_CHARS. Hub's own, not the page's: every line of page content starts with
 * `- ` after its indentation, and hub's lines (the header, `# changes since …`) with `#`.
 */
export const OUTLINE_STOPPED =
  `# outline stopped: this document passed ${SNAPSHOT_DOC_MAX_LINES} lines or ` +
  `${SNAPSHOT_DOC_MAX_CHARS} characters; outline a part with ref or selector`;

// ---------------------------------------------------------------------------------------------
// which elements get a line, and which a ref (dom_snapshot.ts decides with these)

/** Roles an agent acts on: each gets a ref. */
export const WIDGETS = new Set([
  "button",
  "link",
  "checkbox",
  "radio",
  "switch",
  "tab",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "combobox",
  "listbox",
  "textbox",
  "searchbox",
  "slider",
  "spinbutton",
  "scrollbar",
  "treeitem",
  "colorwell",
  "date",
  "datetime",
  "inputtime",
  "disclosuretriangle",
]);
export const NATIVE_CONTROLS = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON", "SUMMARY"]);
export const LANDMARKS = new Set([
  "navigation",
  "main",
  "banner",
  "contentinfo",
  "complementary",
  "region",
  "form",
  "search",
]);
/** Lines without a ref that are always written (the unnamed landmarks among them). */
export const ALWAYS = new Set(["table", "grid", "treegrid", "dialog", "alertdialog", ...LANDMARKS]);
/** Written only when they hold a ref (else their text stands alone), or when named. */
export const HOLDING_REFS = new Set([
  "list",
  "listitem",
  "menu",
  "menubar",
  "tablist",
  "tree",
  "radiogroup",
  "toolbar",
]);
/** Written only when named. */
export const NAMED_ONLY = new Set(["group", "figure", "tabpanel"]);
export const CELLS = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
// ---------------------------------------------------------------------------------------------
// the model

/** One line of the outline and the lines nested under it. */
export interface OutlineNode {
  /** An element's line, a run of text, or an `<iframe>`/`<frame>` (listed in `frames`). */
  kind: "element" | "text" | "frame";
  /** The element's role ("" for text). */
  role: string;
  /** The accessible name, not cut (quoted cuts it); for text, the raw text of the run. */
  name: string;
  /** States without brackets (`checked`, `level=2`, `value="…"`). */
  states: string[];
  /** Whether the line carries a ref (frames always get theirs in `frames`, never on the line). */
  ref: boolean;
  /**
   * The ref is there to act on (a control, a clickable element), not only to target (a heading,
   * row, landmark or image): `interactiveOnly` keeps these lines whatever they hold.
   */
  interactive?: boolean;
  /**
   * Kept by `interactiveOnly` when it holds a kept line, though it has no ref: a landmark or a
   * named container (`table "People"`, `dialog "Confirm"`), the names around the refs.
   */
  context?: boolean;
  /** The element whose ref the line writes (any object: the pure code never looks inside). */
  target?: object;
  /** A frame's index in this window's `frames` (-1 when it is not there). */
  frameIndex?: number;
  /** A frame element's `src` (visible_text.ts frameSource), for a frame hub may not read. */
  frameSrc?: string;
  /** A hover menu's trigger: named by its short text, as a clickable generic is. */
  trigger?: boolean;
  /** A text run that more inline text may still join (no block or line came after it). */
  open?: boolean;
  children: OutlineNode[];
}

/** What `page.snapshot` answers for one document (besides url, title and index). */
export interface OutlineLines {
  lines: string[];
  /**
   * Each `<iframe>`/`<frame>` line: its position in `lines`, its index in `frames`, its ref and
   * the element's `src` (when it has one).
   */
  frames: { line: number; index: number; ref: string; src?: string }[];
  /** The walk stopped at the document's budget: the last line is OUTLINE_STOPPED. */
  stopped?: true;
}

/** An element line's node. */
export function elementNode(
  role: string,
  name: string,
  states: string[],
  ref: boolean,
  target?: object,
): OutlineNode {
  return { kind: "element", role, name, states, ref, target, children: [] };
}

/** Adds page text to `into`: joined to the last run while it is open, else as a new run. */
export function addText(into: OutlineNode[], text: string): void {
  const last = into[into.length - 1];
  if (last?.kind === "text" && last.open) {
    last.name += text;
    return;
  }
  into.push({
    kind: "text",
    role: "",
    name: text,
    states: [],
    ref: false,
    open: true,
    children: [],
  });
}

/** Ends the open text run of `into` (a block box or a line starts or ends). */
export function closeText(into: OutlineNode[]): void {
  const last = into[into.length - 1];
  if (last?.kind === "text") last.open = false;
}

/**
 * Text as one line, trimmed and made inert as names are (inert_text.ts inertText): whitespace
 * and control characters folded to one space, bidi and zero-width characters dropped, `[ref=`
 * written `[ref =`. The same fold as the outline's header line (outline_header.ts foldLine).
 */
export const foldText: (text: string) => string = foldLine;

/** Cut to `max` characters (cutLine: the trailing `…` included, never inside a surrogate pair). */
export function cutText(text: string, max: number = TEXT_MAX_CHARS): string {
  return cutLine(text, max);
}

/**
 * Finishes the text runs at every level: folded and trimmed, cut at TEXT_MAX_CHARS; a run left
 * empty, or equal to the name of the line it sits under, is dropped (so is an image repeating
 * that name); then foldNameFromText.
 */
export function finishText(children: OutlineNode[], parentName = ""): OutlineNode[] {
  const parent = foldText(parentName);
  const out: OutlineNode[] = [];
  for (const child of children) {
    if (child.kind !== "text") {
      child.children = finishText(child.children, child.name);
      foldNameFromText(child);
      if (!repeatsName(child, parent)) out.push(child);
      continue;
    }
    const text = foldText(child.name);
    if (text === "" || text === parent) continue;
    out.push({ ...child, name: cutText(text), open: false });
  }
  return out;
}

/** An image that only repeats the name of the line it sits under (a link's icon). */
function repeatsName(node: OutlineNode, parentName: string): boolean {
  return node.role === "img" && !node.interactive && node.children.length === 0 &&
    parentName !== "" && foldText(node.name) === parentName;
}

/**
 * A clickable element with no role of its own (`generic`, a ref, no name), or a hover menu's
 * trigger with no name (`listitem`), whose contents are only short text: the text becomes its
 * name (`generic "Open menu" [ref=e4]`) instead of a text line under it. Editable elements keep
 * their text as contents. Its runs must be finished.
 */
export function foldNameFromText(node: OutlineNode): void {
  if ((node.role !== "generic" && !node.trigger) || !node.ref || node.name !== "") return;
  if (node.states.includes("editable") || node.children.length === 0) return;
  if (!node.children.every((child) => child.kind === "text")) return;
  const text = node.children.map((child) => child.name).join(" ");
  if (text.length > NAME_MAX_CHARS) return;
  node.name = text;
  node.children = [];
}

/** Whether a ref or a frame is anywhere under `nodes`. */
export function holdsRef(nodes: OutlineNode[]): boolean {
  return nodes.some((node) => node.ref || node.kind === "frame" || holdsRef(node.children));
}

/**
 * Longest name of a context line under `interactiveOnly` (a row, heading, landmark or container
 * kept only to say where its acting lines are), in characters, the cut one ending with `…`: about
 * a row's first cells or a heading's first words, enough to tell one from its neighbours. The
 * line keeps its ref, so `browser_get_page_text` with it reads the whole.
 */
export const CONTEXT_NAME_CHARS = 40;

/**
 * `interactiveOnly`: the lines an agent acts on and the frames, with the names around them: a
 * landmark, row, named container or table holding such a line, and a heading followed by one
 * (before the next heading of its level or higher). Text and every other line are left out, their
 * kept lines moving up a level. A kept context line is only a name: it is cut short
 * (contextName).
 */
export function interactiveOnly(nodes: OutlineNode[]): OutlineNode[] {
  const out: OutlineNode[] = [];
  for (const node of nodes) {
    if (node.kind === "text") continue;
    const children = interactiveOnly(node.children);
    const holder = (node.ref || node.context) && children.length > 0;
    if (node.interactive || node.kind === "frame") out.push({ ...node, children });
    else if (holder || node.role === "heading") {
      out.push({ ...node, name: contextName(node, children), children });
    } else out.push(...children);
  }
  return out.filter((_, i) => !isHeadingAlone(out, i));
}

/**
 * A context line's name under `interactiveOnly`: a row's cells that only repeat its kept lines'
 * names (a cell holding the "Edit" button) left out, as those lines say them; then cut to
 * CONTEXT_NAME_CHARS.
 */
export function contextName(node: OutlineNode, kept: OutlineNode[]): string {
  let name = node.name;
  if (node.role === "row") {
    const names = keptNames(kept).sort((a, b) => b.length - a.length);
    const repeats = (cell: string) =>
      names.reduce((rest, said) => rest.split(said).join(" "), cell).trim() === "";
    const cells = name.split(" | ").filter((cell) => !repeats(cell));
    if (cells.length > 0) name = cells.join(" | ");
  }
  return cutText(name, CONTEXT_NAME_CHARS);
}

/** The non-empty names of `nodes` and of every line under them. */
function keptNames(nodes: OutlineNode[]): string[] {
  return nodes.flatMap((node) => [
    ...(node.name.trim() === "" ? [] : [node.name.trim()]),
    ...keptNames(node.children),
  ]);
}

/** A heading (not itself interactive) with no other line after it in its section. */
function isHeadingAlone(nodes: OutlineNode[], at: number): boolean {
  const heading = nodes[at];
  if (heading.role !== "heading" || heading.interactive || heading.children.length > 0) {
    return false;
  }
  const level = headingLevel(heading);
  for (let i = at + 1; i < nodes.length; i++) {
    const next = nodes[i];
    if (next.role !== "heading" || next.interactive) return false;
    if (headingLevel(next) <= level) return true;
  }
  return true;
}

/** A heading line's level (its `level=N` state), 2 when it has none. */
function headingLevel(node: OutlineNode): number {
  const state = node.states.find((s) => s.startsWith("level="));
  return state ? Number(state.slice("level=".length)) || 2 : 2;
}

/** One line's text after its indentation and `- `, the ref (when it has one) last. */
export function lineText(node: OutlineNode, ref?: string): string {
  if (node.kind === "text") return `text: ${node.name}`;
  let line = node.role;
  if (node.name !== "") line += " " + quoted(node.name);
  for (const state of node.states) line += ` [${state}]`;
  if (ref !== undefined) line += ` [ref=${ref}]`;
  return line;
}

/**
 * Writes the outline: one line per node, two spaces of indentation per level. `refOf` gives the
 * ref of a node's target (called in line order, so new refs are numbered top to bottom); a frame
 * line carries none and goes into `frames` with its ref.
 */
export function writeOutline(
  nodes: OutlineNode[],
  refOf: (target: object) => string,
): OutlineLines {
  const out: OutlineLines = { lines: [], frames: [] };
  const write = (level: OutlineNode[], depth: number) => {
    const indent = "  ".repeat(depth) + "- ";
    for (const node of level) {
      if (node.kind === "frame") {
        const ref = node.target ? refOf(node.target) : "";
        const src = node.frameSrc ? { src: node.frameSrc } : {};
        out.frames.push({ line: out.lines.length, index: node.frameIndex ?? -1, ref, ...src });
        out.lines.push(indent + lineText(node));
        continue; // the worker nests the frame's own outline here
      }
      const ref = node.ref && node.target ? refOf(node.target) : undefined;
      out.lines.push(indent + lineText(node, ref));
      write(node.children, depth + 1);
    }
  };
  write(nodes, 0);
  return out;
}
