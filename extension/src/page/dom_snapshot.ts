/**
 * `page.snapshot` in one document: browser_snapshot's outline of this document (the worker nests
 * the outlines of its frames under their `- iframe` lines, cuts by bytes and diffs; see
 * extension/src/worker/browser_methods/page_snapshot.ts). The walk follows the composed tree from
 * the body (or the `ref`/`selector` element): an open shadow root in place of its host's children,
 * each `<slot>` replaced by the nodes assigned to it. Hidden content (visibility.ts) is left out
 * unless `includeHidden`. One line per meaningful node (dom_snapshot_lines.ts writes them): roles,
 * names and states come from dom_roles.ts and dom_states.ts, lines that need more from
 * dom_snapshot_nodes.ts; elements without a role of their own emit nothing and
 * their contents move up a level. Cost: one getComputedStyle and one box per element, plus what
 * nameOf reads for elements named by their contents.
 */
import {
  NAME_MAX_CHARS,
  SNAPSHOT_DOC_MAX_CHARS,
  SNAPSHOT_DOC_MAX_LINES,
} from "../../../protocol/browser_methods/dom_limits.ts";
import { findTarget } from "./dom_find.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";
import { composedChildren, composedParent, INLINE_DISPLAY } from "./dom_deep.ts";
import { ownFrameIndex } from "./dom_frames.ts";
import { hidesOwnText, isHiddenFromPeople, type PageFacts, pageFacts } from "./visibility.ts";
import { nameOf, roleOf } from "./dom_roles.ts";
import { statesOf } from "./dom_states.ts";
import { framesShown } from "./visible_text.ts";
import type { FramesShown } from "./dom_kit_types.ts";
import {
  addText,
  ALWAYS,
  CELLS,
  closeText,
  elementNode,
  finishText,
  HOLDING_REFS,
  holdsRef,
  interactiveOnly,
  LANDMARKS,
  NAMED_ONLY,
  NATIVE_CONTROLS,
  OUTLINE_STOPPED,
  type OutlineLines,
  type OutlineNode,
  TEXT_MAX_CHARS,
  WIDGETS,
  writeOutline,
} from "./dom_snapshot_lines.ts";
import {
  editingHost,
  frameNode,
  holdsMenu,
  holdsMore,
  isEditableField,
  labelLine,
  menuTrigger,
  openRun,
  optionsOf,
  rowName,
  takeBackText,
  TRIGGER_MAX_LINES,
  triggerNode,
} from "./dom_snapshot_nodes.ts";

/** What `page.snapshot` answers for this document. */
export interface DocumentOutline extends OutlineLines {
  url: string;
  title: string;
  /** This document's index in its parent's `frames`; -1 for the top or when it is not there. */
  index: number;
  /**
   * The child frames this document shows (framesShown; absent with `includeHidden`): with a
   * hidden frame element in a shadow root, the worker cannot tell its frame (index -1) from the
   * others without an index, so it shows none of them.
   */
  framesShown?: FramesShown;
}

/** The walk's settings and the document's facts, read once; what it has written so far. */
interface Walk {
  includeHidden: boolean;
  page: PageFacts;
  /** Lines and characters of lines so far (text counted as written: cut, not raw). */
  lines: number;
  chars: number;
  /** Past SNAPSHOT_DOC_MAX_LINES or SNAPSHOT_DOC_MAX_CHARS: no more is walked. */
  stopped: boolean;
}

/** What an element hands down to its contents. */
interface Context {
  /** The parent's cursor is `pointer`: a child's pointer cursor is inherited, not its own. */
  pointer: boolean;
  /** The parent's own text is invisible (`visibility: hidden`; a child can be visible again). */
  textHidden: boolean;
  /** Inside an editing host (only the host gets a ref). */
  editable: boolean;
  /** Inside a table row: text goes to the row's last cell, for the row's name. */
  cells?: string[];
  /** Text left out: a `<label>`'s, which names its field. */
  mute: boolean;
}

/** Never outlined, nor anything in them. */
const SKIPPED = new Set([
  "SCRIPT",
  "STYLE",
  "TEMPLATE",
  "NOSCRIPT",
  "HEAD",
  "META",
  "LINK",
  "TITLE",
]);
/** Outlined without their contents (their value or name tells them). */
const LEAVES = new Set([
  "INPUT",
  "TEXTAREA",
  "SELECT",
  "IMG",
  "svg",
  "VIDEO",
  "AUDIO",
  "CANVAS",
  "OBJECT",
  "EMBED",
  "METER",
  "PROGRESS",
]);
/** Characters a line takes besides its name, as counted against the budget (role, states, ref). */
const LINE_CHARS = 40;

/** `page.snapshot`: the outline of this document, or of the `ref`/`selector` element. */
export function snapshotDocument(
  args: KitArgs<"page.snapshot">,
  state: KitState,
): DocumentOutline {
  const targeted = args.ref !== undefined || !!args.selector;
  const root = targeted ? findTarget(args, state.refs) : document.body ?? document.documentElement;
  const walk: Walk = {
    includeHidden: args.includeHidden === true,
    page: pageFacts(document),
    lines: 0,
    chars: 0,
    stopped: false,
  };
  let nodes: OutlineNode[] = [];
  if (root && !targeted) walkChildren(root, nodes, rootContext(root, walk), walk);
  else if (root) walkElement(root, nodes, parentContext(root), walk);
  nodes = finishText(nodes);
  if (args.interactiveOnly) nodes = interactiveOnly(nodes);
  const written = writeOutline(nodes, (el) => state.refs.refOf(el as Element, state.scheme));
  if (walk.stopped) {
    written.lines.push(OUTLINE_STOPPED);
    written.stopped = true;
  }
  const hiding = walk.includeHidden ? {} : { framesShown: framesShown(document) };
  return {
    url: location.href,
    title: document.title,
    index: ownFrameIndex(),
    ...written,
    ...hiding,
  };
}

/** What names are built from (nameOf's `seen`): what people see, unless includeHidden. */
function seenBy(walk: Walk): PageFacts | undefined {
  return walk.includeHidden ? undefined : walk.page;
}

/** The context of the body's (or root element's) contents. */
function rootContext(root: Element, walk: Walk): Context {
  const textHidden = !walk.includeHidden && hidesOwnText(getComputedStyle(root));
  return { pointer: false, textHidden, editable: false, mute: false };
}

/** The context a subtree root gets from its parent (cursor and editing only). */
function parentContext(root: Element): Context {
  const parent = composedParent(root);
  const pointer = parent ? getComputedStyle(parent).cursor === "pointer" : false;
  const editable = (parent as HTMLElement | null)?.isContentEditable === true;
  return { pointer, textHidden: false, editable, mute: false };
}

/**
 * Walks `el`'s composed children into `into`. Answers whether a hidden child holds a menu (then
 * `el` is taken for the trigger of a hover menu).
 */
function walkChildren(el: Element, into: OutlineNode[], context: Context, walk: Walk): boolean {
  let hiddenMenu = false;
  for (const child of composedChildren(el)) {
    if (walk.stopped) break;
    if (closedDetails(el, child, walk)) continue;
    if (child.nodeType === Node.TEXT_NODE) takeText((child as Text).data, into, context, walk);
    else if (child.nodeType === Node.ELEMENT_NODE) {
      if (walkElement(child as Element, into, context, walk)) hiddenMenu = true;
    }
  }
  return hiddenMenu;
}

/** Whether `child` is the hidden part of a closed `<details>` (all but its summary). */
function closedDetails(el: Element, child: Node, walk: Walk): boolean {
  if (el.tagName !== "DETAILS" || (el as HTMLDetailsElement).open || walk.includeHidden) {
    return false;
  }
  return !(child instanceof HTMLElement && child.tagName === "SUMMARY" &&
    el.querySelector(":scope > summary") === child);
}

/** Page text where it belongs: the row's cell, nowhere (hidden, a label's), or a text run. */
function takeText(data: string, into: OutlineNode[], context: Context, walk: Walk): void {
  if (context.textHidden || context.mute) return;
  const cells = context.cells;
  if (cells) {
    if (cells.length === 0) cells.push("");
    cells[cells.length - 1] += data;
    return spend(walk, 0, Math.min(data.length, NAME_MAX_CHARS));
  }
  const runs = into.length;
  addText(into, data);
  spend(walk, into.length - runs, Math.min(data.length, TEXT_MAX_CHARS));
}

/** Counts what the walk wrote; past the document's budget, the walk stops. */
function spend(walk: Walk, lines: number, chars: number): void {
  walk.lines += lines;
  walk.chars += chars;
  if (walk.lines > SNAPSHOT_DOC_MAX_LINES || walk.chars > SNAPSHOT_DOC_MAX_CHARS) {
    walk.stopped = true;
  }
}

/** Counts a line of `node`: its name as written (cut) and room for its role, states and ref. */
function spendLine(walk: Walk, node: OutlineNode): void {
  spend(walk, 1, Math.min(node.name.length, NAME_MAX_CHARS) + LINE_CHARS);
}

/**
 * Outlines `el` and its contents into `into`. Answers true when `el` was left out as hidden and
 * holds a menu (see walkChildren).
 */
function walkElement(el: Element, into: OutlineNode[], parent: Context, walk: Walk): boolean {
  if (SKIPPED.has(el.tagName)) return false;
  const style = getComputedStyle(el);
  if (!walk.includeHidden && isHiddenFromPeople(el, style, walk.page)) return holdsMenu(el);
  if (el.tagName === "BR") {
    takeText(" ", into, parent, walk);
    return false;
  }
  const role = roleOf(el);
  if (role === "iframe") {
    closeText(into);
    into.push(frameNode(el));
    spendLine(walk, into[into.length - 1]);
    return false;
  }
  if (parent.cells && CELLS.has(role)) parent.cells.push("");
  const block = !INLINE_DISPLAY.test(style.display);
  if (block) closeText(into);
  const context = childContext(el, role, style, parent, walk);
  const node = lineOf(el, role, style, parent, walk);
  if (node) {
    closeText(into);
    spendLine(walk, node);
  }
  const start = into.length;
  const before = openRun(into);
  let hiddenMenu = false;
  if (el.tagName === "SELECT") {
    for (const option of optionsOf(el as HTMLSelectElement)) {
      into.push(option);
      spendLine(walk, option);
    }
  } else if (!LEAVES.has(el.tagName) && !(node?.kind === "element" && isEditableField(node))) {
    hiddenMenu = walkChildren(el, into, context, walk);
  }
  let line = node;
  if (hiddenMenu && menuTrigger(el) && !holdsMore(into.slice(start), TRIGGER_MAX_LINES)) {
    if (!line) {
      takeBackText(into, start, before);
      line = triggerNode(el, role, seenBy(walk));
      spendLine(walk, line);
    }
    line.ref = line.interactive = line.trigger = true;
  }
  if (line) {
    line.children = into.splice(start);
    if (context.cells && role === "row") {
      line.name = rowName(el, role, context.cells, seenBy(walk));
    }
    if (kept(line, role)) into.push(line);
    else into.push(...line.children);
    closeText(into);
  } else if (block) closeText(into);
  return false;
}

/**
 * Whether a tentative line stays: a list (or list item, menu…) gives way to its contents when it
 * holds no ref (its text stands alone) or holds just one line (a wrapper, like an item holding
 * one link).
 */
function kept(line: OutlineNode, role: string): boolean {
  if (line.ref || ALWAYS.has(role) || line.name !== "") return true;
  const shown = line.children.filter((child) => child.kind !== "text" || /\S/.test(child.name));
  if (shown.length === 1 && shown[0].kind !== "text") return false;
  return HOLDING_REFS.has(role) && holdsRef(line.children);
}

/** What `el`'s contents inherit from it. */
function childContext(
  el: Element,
  role: string,
  style: CSSStyleDeclaration,
  parent: Context,
  walk: Walk,
): Context {
  return {
    pointer: style.cursor === "pointer",
    textHidden: !walk.includeHidden && hidesOwnText(style),
    editable: parent.editable || editingHost(el),
    cells: role === "row" ? [] : parent.cells,
    mute: parent.mute || (el.tagName === "LABEL" && (el as HTMLLabelElement).control !== null),
  };
}

/**
 * `el`'s line, or undefined when it has none of its own: a ref'd element (refReason), a label
 * standing for its hidden checkbox, or a structural line (table, landmark, list, named group)
 * that `kept` confirms once its contents are known.
 */
function lineOf(
  el: Element,
  role: string,
  style: CSSStyleDeclaration,
  parent: Context,
  walk: Walk,
): OutlineNode | undefined {
  if (el.tagName === "LABEL") {
    const stand = walk.includeHidden ? undefined : labelLine(el as HTMLLabelElement, walk.page);
    if (stand) return stand;
  }
  const structural = ALWAYS.has(role) || HOLDING_REFS.has(role) || NAMED_ONLY.has(role);
  const interactive = refReason(el, role, style, parent);
  const targeted = role === "heading" || role === "row";
  if (!interactive && !structural && !targeted && role !== "img") return undefined;
  const name = nameOf(el, role, seenBy(walk));
  const landmarkRef = LANDMARKS.has(role) &&
    (name !== "" || role === "main" || role === "navigation");
  const imageRef = role === "img" && name !== "";
  if (!interactive && !structural && !targeted && !imageRef) return undefined;
  const states = statesOf(el, role);
  if (role === "generic" && !parent.editable && editingHost(el)) states.push("editable");
  const ref = interactive || targeted || landmarkRef || imageRef;
  const node = elementNode(role, name, states, ref, el);
  node.interactive = interactive;
  node.context = ALWAYS.has(role) || (structural && name !== "");
  return node;
}

/** Whether `el` is one an agent acts on or targets (the landmarks and images aside). */
function refReason(
  el: Element,
  role: string,
  style: CSSStyleDeclaration,
  parent: Context,
): boolean {
  if (WIDGETS.has(role)) return true;
  if (NATIVE_CONTROLS.has(el.tagName) && role !== "none") return true;
  if ((el.tagName === "A" || el.tagName === "AREA") && el.hasAttribute("href")) return true;
  if (el.hasAttribute("tabindex") && (el as HTMLElement).tabIndex >= 0) return true;
  if (!parent.editable && editingHost(el)) return true;
  if (el.getAttribute("draggable") === "true") return true;
  // the attribute only: a page script's `.onclick` lives in the main world, unseen from here
  if (el.hasAttribute("onclick")) return true;
  const popup = el.getAttribute("aria-haspopup");
  if (popup && popup !== "false") return true;
  if (style.cursor !== "pointer" || parent.pointer) return false;
  // a label's pointer only says its field is clickable, and the field has its own line
  return !(el.tagName === "LABEL" && (el as HTMLLabelElement).control);
}
