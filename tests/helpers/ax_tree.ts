/**
 * Both sides of tests/e2e/browser_roles_test.ts's comparison: the page kit's report of every
 * element (REPORT, bundled into the page; `__rolesReport()` answers it) and Chromium's own
 * accessibility tree for the same elements (chromiumSays: DOM.getDocument for the elements' keys,
 * Accessibility.getFullAXTree for their roles, names and properties, written as the kit's states).
 */
import type { Page } from "playwright-core";

/** What the kit or Chromium says of one element. */
export interface Seen {
  role: string;
  name: string;
}

/** HTML whitespace collapsed and trimmed, as dom_names.ts's `collapse` (which needs the DOM lib). */
export const collapse = (text: string) => text.replace(/[ \t\n\r\f]+/g, " ").trim();

/** What the page side reports per element. */
export interface Kit extends Seen {
  states: string[];
  /** Not rendered, visibility: hidden, or aria-hidden (itself or an ancestor). */
  hidden: boolean;
  /** Inside a button, img, checkbox… (ARIA: their children are presentational). */
  presentational: boolean;
  /** The element's aria-valuetext attribute. */
  valuetext: string | null;
}

/**
 * The page side: `__rolesReport()` answers `{ [key]: { role, name, states, hidden } }` for every
 * element in the body and its open shadow roots, keyed by its id (the first with it), else by `n<i>`; the key is also
 * written to the element as `data-roles-key`, where DOM.getDocument finds it.
 */
export const REPORT = `import { nameOf, roleOf } from "./extension/src/page/dom_roles.ts";
import { statesOf, VALUED } from "./extension/src/page/dom_states.ts";
// The roles whose value the kit writes, for chromiumSays (the kit's own list, not a copy).
globalThis.__valuedRoles = [...VALUED];
// ARIA's roles whose children are presentational: Chromium leaves their descendants out.
const PRESENTATIONAL = new Set(["button", "checkbox", "img", "math", "menuitemcheckbox",
  "menuitemradio", "meter", "option", "progressbar", "radio", "scrollbar", "separator", "slider",
  "switch", "tab"]);
// The element and its ancestors in the composed tree (a shadow root's host).
const ancestors = (el) => {
  const out = [];
  for (let up = el; up; up = up.parentElement ?? up.getRootNode().host) out.push(up);
  return out;
};
const inPresentational = (el) =>
  ancestors(el).slice(1).some((up) => PRESENTATIONAL.has(roleOf(up)));
globalThis.__rolesReport = () => {
  const out = {};
  let n = 0;
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      const key = el.id && !(el.id in out) ? el.id : "n" + ++n;
      el.setAttribute("data-roles-key", key);
      const role = roleOf(el);
      out[key] = {
        role,
        name: nameOf(el, role),
        states: statesOf(el, role),
        valuetext: el.getAttribute("aria-valuetext"),
        hidden: !el.checkVisibility({ visibilityProperty: true }) ||
          ancestors(el).some((up) => up.getAttribute("aria-hidden") === "true"),
        presentational: inPresentational(el),
      };
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document.body);
  return out;
};`;

/** A DOM.Node as DOM.getDocument gives it (the fields read here). */
interface CdpNode {
  backendNodeId: number;
  nodeName: string;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: CdpNode[];
}

/** An Accessibility.AXNode (the fields read here). */
interface AxNode {
  backendDOMNodeId?: number;
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  value?: { value: unknown };
  properties?: { name: string; value: { value: unknown } }[];
}

/** What Chromium says of one element. */
export interface Theirs extends Seen {
  ignored: boolean;
  /** Chromium's properties written as the kit writes states (see statesFrom). */
  states: string[];
}

/** Short page text as the kit quotes it (these pages hold no value near the cut). */
export const quote = (text: string) =>
  `"${text.replace(/\s+/g, " ").replace(/[\\"]/g, (c) => "\\" + c)}"`;

/**
 * Chromium's properties as kit states, in the kit's order: checked, disabled, expanded, selected,
 * pressed, level (headings), value (the roles in `valued`: dom_states.ts VALUED), required. `password` and `url` have no
 * counterpart to compare (Chromium shows bullets and the resolved URL).
 */
function statesFrom(node: AxNode, role: string, valued: Set<string>): string[] {
  const props = Object.fromEntries((node.properties ?? []).map((p) => [p.name, p.value.value]));
  const states: string[] = [];
  if (props.checked === "true") states.push("checked");
  if (props.checked === "mixed") states.push("checked=mixed");
  if (props.disabled === true) states.push("disabled");
  if (props.expanded !== undefined) states.push(`expanded=${props.expanded}`);
  if (props.selected === true) states.push("selected");
  if (props.pressed === "true") states.push("pressed");
  if (props.pressed === "mixed") states.push("pressed=mixed");
  if (role === "heading" && props.level !== undefined) states.push(`level=${props.level}`);
  // aria-valuetext is the value people read (the kit writes it before aria-valuenow).
  const value = props.valuetext || node.value?.value;
  if (valued.has(role) && value !== undefined && value !== "") {
    states.push(`value=${quote(String(value))}`);
  }
  if (props.required === true) states.push("required");
  return states;
}

/** backendNodeId → `data-roles-key`, for the top document and its open shadow roots. */
function keysByBackendNode(node: CdpNode, out = new Map<number, string>()): Map<number, string> {
  const attributes = node.attributes ?? [];
  for (let i = 0; i < attributes.length; i += 2) {
    if (attributes[i] === "data-roles-key") out.set(node.backendNodeId, attributes[i + 1]);
  }
  // contentDocument (the iframe's) is left out: the page's ids are all in the top document.
  for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
    keysByBackendNode(child, out);
  }
  return out;
}

/** Chromium's role and name of each keyed element of the page (after `__rolesReport()`). */
export async function chromiumSays(page: Page): Promise<Record<string, Theirs>> {
  const valued = new Set(await page.evaluate("__valuedRoles") as string[]);
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send("DOM.getDocument", { depth: -1, pierce: true });
  const keys = keysByBackendNode(root as unknown as CdpNode);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree") as unknown as {
    nodes: AxNode[];
  };
  await cdp.detach();
  const out: Record<string, Theirs> = {};
  for (const node of nodes) {
    const key = node.backendDOMNodeId && keys.get(node.backendDOMNodeId);
    if (!key) continue;
    const lower = (node.role?.value ?? "").toLowerCase();
    const role = lower === "image" ? "img" : lower;
    out[key] = {
      role,
      // The kit's names are whitespace-collapsed by contract (Chromium keeps `alt="  "`).
      name: collapse(node.name?.value ?? ""),
      ignored: node.ignored,
      states: statesFrom(node, role, valued),
    };
  }
  return out;
}

/**
 * Chromium's roles for text-level and other structural elements (strong, code, blockquote, …):
 * the kit writes them as generic, their text is the snapshot's text.
 */
export const TEXT_LEVEL = new Set([
  "emphasis",
  "strong",
  "code",
  "blockquote",
  "time",
  "mark",
  "abbr",
  "pre",
  "term",
  "definition",
  "descriptionlist",
  "canvas",
  "labeltext",
  "legend",
  "caption",
  "figcaption",
  "subscript",
  "superscript",
  "insertion",
  "deletion",
  "linebreak",
]);
