/**
 * The page kit's roles, names and states (extension/src/page/dom_roles.ts, dom_names.ts,
 * dom_states.ts) against Chromium's own
 * accessibility tree: on the test web app's `/roles` page (roles_pages.ts, varied elements, some in
 * an open shadow root), on it again after edits, and on the app's other pages, every element's role,
 * name and states as the kit computes them must be what `Accessibility.getFullAXTree` reports
 * (roles lowercased, `image` written `img`; properties written as the kit's states), except the
 * kinds of difference named in RULES and the elements in EXCEPTIONS, each on purpose, with why.
 * No hub and no extension: the module is bundled with esbuild and added to the page as a script
 * (the kit uses the same DOM APIs in its isolated world). `ROLES_DEBUG=1` prints every element.
 */
import type { Browser, Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { browserGate, launchChromium } from "../helpers/browser.ts";
import { bundlePageScript } from "../helpers/page_bundle.ts";
import { startTestWebApp, type TestWebApp } from "../fixtures/web_app/server.ts";

const gate = browserGate(import.meta.url);

/** What the kit or Chromium says of one element. */
interface Seen {
  role: string;
  name: string;
}

/** HTML whitespace collapsed and trimmed, as dom_names.ts's `collapse` (which needs the DOM lib). */
const collapse = (text: string) => text.replace(/[ \t\n\r\f]+/g, " ").trim();

/** What the page side reports per element. */
interface Kit extends Seen {
  states: string[];
  /** Not rendered, visibility: hidden, or aria-hidden (itself or an ancestor). */
  hidden: boolean;
  /** Inside a button, img, checkbox… (ARIA: their children are presentational). */
  presentational: boolean;
  /** The element's aria-valuetext attribute. */
  valuetext: string | null;
}

/**
 * Elements where the kit writes something else than Chromium reports, on purpose: what the kit
 * says (checked), and why.
 */
const EXCEPTIONS: Record<string, Partial<Seen> & { states?: string[]; why: string }> = {
  generated: {
    name: "Gen",
    why: 'Chromium: "Before Gen". The kit reads ::before/::after text only for a name that is ' +
      "empty without it (icon-only buttons): each read is a style computation per element, which " +
      "tripled the cost of names on a 3,000-element page",
  },
  "internals-button": {
    role: "generic",
    name: "",
    why: 'Chromium: button "Internal". A custom element\'s ElementInternals role and ARIA ' +
      "properties are private to the element; no page script, isolated world included, can read them",
  },
};

/**
 * Differences by kind, on every page: the kit's role (and name) against Chromium's for the same
 * element.
 */
const RULES: Record<string, (kit: Seen, chromium: Seen) => boolean> = {
  // strong, code, blockquote, dt, label… are generic to the kit: their text is the outline's text.
  textLevel: (kit, chromium) => TEXT_LEVEL.has(chromium.role) && kit.role === "generic",
  // A header/footer inside article/aside/main/nav/section (Chromium: sectionheader/-footer) is
  // no landmark: the snapshot writes landmarks only at the top level, its contents stand alone.
  scopedHeader: (kit, chromium) =>
    (chromium.role === "sectionheader" || chromium.role === "sectionfooter") &&
    kit.role === "generic",
  // A form without a name is no landmark (ARIA), and a line for it would only add depth.
  unnamedForm: (kit, chromium) =>
    chromium.role === "form" && chromium.name === "" && kit.role === "generic",
  // Chromium guesses layout tables from their headers, size and borders; the kit writes every
  // table as a table (the names agree).
  layoutTable: (kit, chromium) =>
    LAYOUT_TABLE[chromium.role] === kit.role && kit.name === chromium.name,
  // thead/tbody/tfoot (Chromium: rowgroup, mostly left out) and an unnamed <svg> (svgroot):
  // structure that would only add a level to the outline.
  wrapper: (kit, chromium) =>
    (chromium.role === "rowgroup" || chromium.role === "svgroot") && kit.role === "generic",
  // Names leave out text people cannot see: under 0.05 opacity or without ink (transparent, a
  // font under 3 px; dom_names.ts), so a name says only what the page shows; Chromium names
  // with it. The test pages write such text as a MARKER-… word (snapshot_pages.ts /snap/hidden).
  invisibleText: (kit, chromium) =>
    kit.role === chromium.role && chromium.name.includes("MARKER-") &&
    kit.name === collapse(chromium.name.replace(/MARKER-[\w-]+/g, " ")),
};

/**
 * Chromium's states as the kit writes them on purpose: no value for a password (bullets to
 * Chromium; the kit writes `password` and never a value), no `expanded=false` on a native select
 * (a closed select is the usual state; its options are listed under it), and an ARIA slider's or
 * spin button's aria-valuetext (what people read) where Chromium reports the number.
 */
function expectedStates(kit: Kit, chromium: Theirs): string[] {
  return chromium.states.flatMap((state) => {
    if (state.startsWith("value=")) {
      if (kit.states.includes("password")) return [];
      if (kit.valuetext !== null) return [`value=${quote(kit.valuetext)}`];
    }
    if (
      state === "expanded=false" && chromium.role === "combobox" &&
      !kit.states.some((own) => own.startsWith("expanded="))
    ) return [];
    return [state];
  });
}

/** Chromium's layout-table roles and the kit's role for the same element. */
const LAYOUT_TABLE: Record<string, string> = {
  layouttable: "table",
  layouttablerow: "row",
  layouttablecell: "cell",
};

/** Pages of the test web app besides /roles whose every element is compared too. */
const OTHER_PAGES = [
  "/roles-widgets", // ARIA widget patterns as sites build them (roles_pages.ts)
  "/form",
  "/shadow",
  "/text-hidden",
  "/scroll-box",
  "/nav",
  "/console",
  "/snap/big?n=3000", // browser_snapshot's generated page (snapshot_pages.ts)
  "/snap/signup",
  "/snap/shadow",
  "/snap/hidden",
  "/snap/rerender",
];

/**
 * Chromium's roles for text-level and other structural elements (strong, code, blockquote, …):
 * the kit writes them as generic, their text is the snapshot's text.
 */
const TEXT_LEVEL = new Set([
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

/**
 * The page side: `__rolesReport()` answers `{ [key]: { role, name, states, hidden } }` for every
 * element in the body and its open shadow roots, keyed by its id (the first with it), else by `n<i>`; the key is also
 * written to the element as `data-roles-key`, where DOM.getDocument finds it.
 */
const REPORT = `import { nameOf, roleOf } from "./extension/src/page/dom_roles.ts";
import { statesOf } from "./extension/src/page/dom_states.ts";
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
interface Theirs extends Seen {
  ignored: boolean;
  /** Chromium's properties written as the kit writes states (see statesFrom). */
  states: string[];
}

/** Short page text as the kit quotes it (these pages hold no value near the cut). */
const quote = (text: string) => `"${text.replace(/\s+/g, " ").replace(/[\\"]/g, (c) => "\\" + c)}"`;

/** Roles whose value the kit writes (dom_states.ts VALUED). */
const VALUED = new Set([
  "textbox",
  "searchbox",
  "combobox",
  "spinbutton",
  "slider",
  "date",
  "datetime",
  "inputtime",
]);

/**
 * Chromium's properties as kit states, in the kit's order: checked, disabled, expanded, selected,
 * pressed, level (headings), value (the roles in VALUED), required. `password` and `url` have no
 * counterpart to compare (Chromium shows bullets and the resolved URL).
 */
function statesFrom(node: AxNode, role: string): string[] {
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
  if (VALUED.has(role) && value !== undefined && value !== "") {
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

let app: TestWebApp;
let browser: Browser;
let script = "";

Deno.test.beforeAll(async () => {
  if (gate.ignore) return;
  gate.check();
  script = await bundlePageScript(REPORT); // dom_roles.ts and dom_states.ts with REPORT
  app = await startTestWebApp();
  browser = await launchChromium();
});

Deno.test.afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** How the elements of one page compare: counts, and each difference nothing explains. */
interface Comparison {
  elements: number;
  same: number;
  /** Neither the kit (none, or hidden) nor Chromium (no node, or ignored) exposes them. */
  unexposed: number;
  /** Explained by RULES, by rule. */
  ruled: Record<string, number>;
  /** Explained by EXCEPTIONS. */
  excepted: number;
  differences: string[];
}

/** Chromium's role and name of each keyed element of the page (after `__rolesReport()`). */
async function chromiumSays(page: Page): Promise<Record<string, Theirs>> {
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
      states: statesFrom(node, role),
    };
  }
  return out;
}

/**
 * Opens `path`, runs `prepare` (edits), then the kit's roles, names and states on every element,
 * and compares them with Chromium's.
 */
async function compare(path: string, prepare?: (page: Page) => Promise<void>): Promise<Comparison> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(new URL(path, app.url).href);
    await page.addScriptTag({ content: script });
    await prepare?.(page);
    const ours = await page.evaluate("__rolesReport()") as Record<string, Kit>;
    const chromium = await chromiumSays(page);
    const result: Comparison = {
      elements: 0,
      same: 0,
      unexposed: 0,
      ruled: {},
      excepted: 0,
      differences: [],
    };
    for (const [key, kit] of Object.entries(ours)) {
      result.elements++;
      const theirs = chromium[key];
      if (Deno.env.get("ROLES_DEBUG")) {
        const said = theirs
          ? `${theirs.role} "${theirs.name}"${theirs.ignored ? " (ignored)" : ""}`
          : "no node";
        console.log(`${key}: kit ${kit.role} "${kit.name}" [${kit.states}]; chromium ${said}`);
      }
      if (!theirs || theirs.ignored) {
        // Not in Chromium's tree (or ignored): the kit must say "none" or "generic" (a wrapper
        // without a line), or the element is hidden (the snapshot leaves hidden elements out
        // before asking their role), or inside a role whose children are presentational.
        if (kit.role === "none" || kit.role === "generic" || kit.hidden || kit.presentational) {
          result.unexposed++;
        } else result.differences.push(`${key}: Chromium does not expose it; the kit: ${kit.role}`);
        continue;
      }
      const rule = Object.entries(RULES).find(([, applies]) => applies(kit, theirs))?.[0];
      if (rule) {
        result.ruled[rule] = (result.ruled[rule] ?? 0) + 1;
        continue;
      }
      const exception = path === "/roles" ? EXCEPTIONS[key] : undefined;
      let same = true;
      for (const field of ["role", "name"] as const) {
        const expected = exception?.[field] ?? theirs[field];
        if (kit[field] !== expected) {
          same = false;
          result.differences.push(
            `${key} ${field}: kit ${JSON.stringify(kit[field])}, expected ${
              JSON.stringify(expected)
            } (Chromium: ${JSON.stringify(theirs[field])})`,
          );
        }
      }
      const kitStates = kit.states.filter((state) => !/^(url=|password$)/.test(state));
      const theirStates = exception?.states ?? expectedStates(kit, theirs);
      if (kitStates.join(" ") !== theirStates.join(" ")) {
        same = false;
        result.differences.push(
          `${key} states: kit ${JSON.stringify(kitStates)}, Chromium ${
            JSON.stringify(theirStates)
          }`,
        );
      }
      if (!same) continue;
      if (exception) result.excepted++;
      else result.same++;
    }
    return result;
  } finally {
    await context.close();
  }
}

/** One line for the test's output. */
function summary(path: string, result: Comparison): string {
  return `${path}: ${result.elements} elements, ${result.same} agree with Chromium, ` +
    `${result.unexposed} exposed by neither, by rule ${JSON.stringify(result.ruled)}, ` +
    `${result.excepted} listed exceptions, ${result.differences.length} unexplained`;
}

Deno.test({
  name: "roles and names agree with Chromium's accessibility tree on /roles",
  ignore: gate.ignore,
  async fn() {
    const result = await compare("/roles");
    console.log(summary("/roles", result));
    assertEquals(result.differences, [], "every difference is explained by RULES or EXCEPTIONS");
    const edited = await compare("/roles", edit);
    console.log(summary("/roles, edited", edited));
    assertEquals(edited.differences, [], "after edits too");
  },
});

Deno.test({
  name: "roles and names agree with Chromium on the test app's other pages",
  ignore: gate.ignore,
  async fn(t) {
    for (const path of OTHER_PAGES) {
      await t.step(path, async () => {
        const result = await compare(path);
        console.log(summary(path, result));
        assertEquals(result.differences, [], "every difference is explained by RULES");
      });
    }
  },
});

/** What a person does on /roles before the states are read again. */
async function edit(page: Page): Promise<void> {
  await page.fill("#user", "grace");
  await page.fill("#textarea-live", 'say "hi"\nthere');
  await page.selectOption("#select", "One");
  await page.uncheck("#checkbox");
  await page.check("#radio");
  await page.click("#summary");
}

/** The states the kit writes for some elements of /roles, after the edits in the test. */
const STATES: Record<string, string[]> = {
  password: ["password"], // never its value
  user: ['value="grace"'], // the live value, not the attribute
  "textarea-live": ['value="say \\"hi\\" there"'], // quoted, the line break folded
  select: ['value="One"'], // the chosen option's text
  range: ['value="50"'],
  "nav-link": ['url="/docs?x=1&y=2"'], // as written, not resolved
  "long-link": [`url="/${"x".repeat(148)}…"`],
  checkbox: [],
  radio: ["checked"],
  mixed: ["checked=mixed"],
  indeterminate: ["checked=mixed"],
  summary: ["expanded=true"],
  treeitem: ["expanded=false"],
  "role-combobox": ["expanded=true"],
  tab: ["selected"],
  option: ["selected"],
  h1: ["level=1"],
  "div-heading": ["level=4"],
  "in-disabled-fieldset": ["disabled"],
  "aria-disabled": ["disabled"],
  toggle: ["pressed"],
  required: ["required"],
  "role-textbox": ['value="Typed"'],
  button: [],
  span: [],
};

Deno.test({
  name: "states follow the live page: checked, values, open details, disabled, url as written",
  ignore: gate.ignore,
  async fn() {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(new URL("/roles", app.url).href);
      await page.addScriptTag({ content: script });
      await edit(page);
      const ours = await page.evaluate("__rolesReport()") as Record<string, Kit>;
      const seen = Object.fromEntries(Object.keys(STATES).map((id) => [id, ours[id].states]));
      assertEquals(seen, STATES);
    } finally {
      await context.close();
    }
  },
});

Deno.test({
  name: "a name stops reading contents after CONTENT_CAP, so a huge role=button stays cheap",
  ignore: gate.ignore,
  async fn() {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(new URL("/roles", app.url).href);
      await page.addScriptTag({ content: script });
      await page.evaluate(`{
        const wrapper = document.createElement("div");
        wrapper.id = "app-wrapper";
        wrapper.setAttribute("role", "button");
        for (let i = 0; i < 3000; i++) {
          const span = document.createElement("span");
          span.textContent = "word" + i + " ";
          wrapper.append(span);
        }
        document.body.append(wrapper);
      }`);
      const ours = await page.evaluate("__rolesReport()") as Record<string, Kit>;
      const name = ours["app-wrapper"].name;
      assertEquals(name.startsWith("word0 word1 word2 "), true, name.slice(0, 40));
      const words = name.split(" ").length;
      assertEquals(words > 100 && words < 300, true, `${words} words read`);
    } finally {
      await context.close();
    }
  },
});
