/**
 * Lines of browser_snapshot's outline that need a look at the element beyond its role: a hover
 * menu's trigger (an element holding a hidden menu or panel of links), a table row's name, a
 * select's options, a frame's line, an editable field, a styled control's label. Used by the walk in
 * dom_snapshot.ts.
 */
import { nameOf, roleOf } from "./dom_roles.ts";
import { statesOf } from "./dom_states.ts";
import { windowIndex } from "./dom_frames.ts";
import { isHiddenFromPeople, type PageFacts } from "./visibility.ts";
import { frameSource } from "./visible_text.ts";
import {
  addText,
  closeText,
  elementNode,
  foldText,
  type OutlineNode,
} from "./dom_snapshot_lines.ts";

/**
 * A hidden element that is or holds a menu, a list, or links and buttons (a panel of links shown
 * on hover) makes its parent the trigger of a hover menu.
 */
const MENU_TAGS = new Set(["UL", "OL", "MENU"]);
const MENU_ROLES = new Set(["menu", "menubar", "listbox", "tree"]);
const MENU_SELECTOR = "ul, ol, menu, [role=menu], [role=menubar], [role=listbox], [role=tree], " +
  "a[href], button, [role^=menuitem]";
/**
 * Most lines a hover menu's trigger may hold besides its menu (a label, an icon, a link, a card's
 * few lines): a wrapper of a whole page part that happens to hold a hidden panel is no trigger.
 */
export const TRIGGER_MAX_LINES = 8;

/**
 * Whether a hidden element is, or holds, a menu or list, or holds links or buttons (shown on
 * hover, by CSS or script). A closed dialog is no menu.
 */
export function holdsMenu(el: Element): boolean {
  if (MENU_TAGS.has(el.tagName) || MENU_ROLES.has(el.getAttribute("role") ?? "")) return true;
  if (el.tagName === "DIALOG" || /^(alert)?dialog$/.test(el.getAttribute("role") ?? "")) {
    return false;
  }
  return el.firstElementChild !== null && el.querySelector(MENU_SELECTOR) !== null;
}

/** Whether `nodes` hold more than `max` lines, at any depth. */
export function holdsMore(nodes: OutlineNode[], max: number): boolean {
  let left = max;
  const count = (level: OutlineNode[]): boolean =>
    level.some((node) => --left < 0 || count(node.children));
  return count(nodes);
}

/** The text run still open at the end of `into` and its length, which an inline child may extend. */
export function openRun(into: OutlineNode[]): { run: OutlineNode; length: number } | undefined {
  const last = into[into.length - 1];
  return last?.kind === "text" && last.open ? { run: last, length: last.name.length } : undefined;
}

/**
 * An inline element turned out to be a line (a hover menu's trigger) after its text joined the
 * run before it: that text moves back under the element, at `start`, and the run is closed.
 */
export function takeBackText(
  into: OutlineNode[],
  start: number,
  before: { run: OutlineNode; length: number } | undefined,
): void {
  if (!before) return;
  const { run, length } = before;
  const own = run.name.slice(length);
  run.name = run.name.slice(0, length);
  run.open = false;
  if (own === "") return;
  const moved: OutlineNode[] = [];
  addText(moved, own);
  closeText(moved);
  into.splice(start, 0, ...moved);
}

/** Elements too large to be taken for a hover menu's trigger. */
export function menuTrigger(el: Element): boolean {
  return el !== document.body && el !== document.documentElement;
}

/** The line of a hover menu's trigger that has no line of its own. */
export function triggerNode(el: Element, role: string, seen?: PageFacts): OutlineNode {
  return elementNode(role, nameOf(el, role, seen), statesOf(el, role), true, el);
}

/**
 * The options of a `<select>` as lines under it (no refs: the select is the target); one hidden
 * by `hidden` or `display: none` is not offered to people, so it is left out.
 */
export function optionsOf(select: HTMLSelectElement): OutlineNode[] {
  const lines: OutlineNode[] = [];
  for (const option of select.options) {
    if (option.hidden || getComputedStyle(option).display === "none") continue;
    lines.push(elementNode("option", option.label, statesOf(option, "option"), false));
  }
  return lines;
}

/** An `<iframe>`/`<frame>` line: no ref on it, listed in `frames` with its index. */
export function frameNode(el: Element): OutlineNode {
  const node = elementNode("iframe", nameOf(el, "iframe"), [], false, el);
  node.kind = "frame";
  const here = globalThis as unknown as Window;
  node.frameIndex = windowIndex(here, (el as HTMLIFrameElement).contentWindow);
  const src = frameSource(el);
  if (src) node.frameSrc = src;
  return node;
}

/** A row's name: its aria name when it has one, else its cells' texts joined by " | ". */
export function rowName(
  el: Element,
  role: string,
  cells: string[],
  seen?: PageFacts,
): string {
  if (el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")) {
    const name = nameOf(el, role, seen);
    if (name) return name;
  }
  return cells.map(foldText).filter((cell) => cell !== "").join(" | ");
}

/** A field whose value is its contents (a contenteditable textbox): its value says them. */
export function isEditableField(node: OutlineNode): boolean {
  return (node.role === "textbox" || node.role === "searchbox") &&
    (node.target as HTMLElement).isContentEditable === true;
}

/** Whether `el` makes its contents editable (`contenteditable`; the attribute is read first). */
export function editingHost(el: Element): boolean {
  return el.hasAttribute("contenteditable") && (el as HTMLElement).isContentEditable === true;
}

/**
 * A `<label>` whose checkbox, radio or switch is hidden (a styled control): the label is what a
 * person clicks, so it gets the field's line, with the label's ref. Not with includeHidden (the
 * control has its own line then).
 */
export function labelLine(label: HTMLLabelElement, page: PageFacts): OutlineNode | undefined {
  const control = label.control;
  if (!control) return undefined;
  const role = roleOf(control);
  if (role !== "checkbox" && role !== "radio" && role !== "switch") return undefined;
  if (!isHiddenFromPeople(control, getComputedStyle(control), page)) return undefined;
  const node = elementNode(role, nameOf(control, role, page), statesOf(control, role), true, label);
  node.interactive = true;
  return node;
}
