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
 * Both sides' plumbing (the page report, Chromium's tree read over CDP): tests/helpers/ax_tree.ts.
 */
import type { Browser, Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { browserGate, launchChromium } from "../helpers/browser.ts";
import { bundlePageScript } from "../helpers/page_bundle.ts";
import {
  chromiumSays,
  collapse,
  type Kit,
  quote,
  REPORT,
  type Seen,
  TEXT_LEVEL,
  type Theirs,
} from "../helpers/ax_tree.ts";
import { startTestWebApp, type TestWebApp } from "../fixtures/web_app/server.ts";

const gate = browserGate(import.meta.url);

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
  // with it. The test pages write such text as a MARKER-… word (snapshot_more_pages.ts /snap/hidden).
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
  "/snap/big?n=3000", // browser_snapshot's generated page (snapshot_more_pages.ts)
  "/snap/signup",
  "/snap/shadow",
  "/snap/hidden",
  "/snap/rerender",
];

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

/** How one element compares: a kind of agreement, or the differences nothing explains. */
type Outcome =
  | { kind: "unexposed" | "same" | "excepted" }
  | { kind: "ruled"; rule: string }
  | { kind: "differ"; differences: string[] };

/** One element: the kit's role, name and states against Chromium's (`theirs`, if it has a node). */
function compareElement(
  key: string,
  kit: Kit,
  theirs: Theirs | undefined,
  exception: (typeof EXCEPTIONS)[string] | undefined,
): Outcome {
  if (!theirs || theirs.ignored) {
    // Not in Chromium's tree (or ignored): the kit must say "none" or "generic" (a wrapper
    // without a line), or the element is hidden (the snapshot leaves hidden elements out
    // before asking their role), or inside a role whose children are presentational.
    if (kit.role === "none" || kit.role === "generic" || kit.hidden || kit.presentational) {
      return { kind: "unexposed" };
    }
    return {
      kind: "differ",
      differences: [`${key}: Chromium does not expose it; the kit: ${kit.role}`],
    };
  }
  const rule = Object.entries(RULES).find(([, applies]) => applies(kit, theirs))?.[0];
  if (rule) return { kind: "ruled", rule };
  const differences = differencesOf(key, kit, theirs, exception);
  if (differences.length > 0) return { kind: "differ", differences };
  return { kind: exception ? "excepted" : "same" };
}

/** Role, name and states where the kit says other than expected (Chromium's, or the exception's). */
function differencesOf(
  key: string,
  kit: Kit,
  theirs: Theirs,
  exception: (typeof EXCEPTIONS)[string] | undefined,
): string[] {
  const differences: string[] = [];
  for (const field of ["role", "name"] as const) {
    const expected = exception?.[field] ?? theirs[field];
    if (kit[field] !== expected) {
      differences.push(
        `${key} ${field}: kit ${JSON.stringify(kit[field])}, expected ${
          JSON.stringify(expected)
        } (Chromium: ${JSON.stringify(theirs[field])})`,
      );
    }
  }
  const kitStates = kit.states.filter((state) => !/^(url=|password$)/.test(state));
  const theirStates = exception?.states ?? expectedStates(kit, theirs);
  if (kitStates.join(" ") !== theirStates.join(" ")) {
    differences.push(
      `${key} states: kit ${JSON.stringify(kitStates)}, Chromium ${JSON.stringify(theirStates)}`,
    );
  }
  return differences;
}

/** Opens `path` in a new context with the kit's report script added, runs `use`, closes the context. */
async function onKitPage<T>(path: string, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(new URL(path, app.url).href);
    await page.addScriptTag({ content: script });
    return await use(page);
  } finally {
    await context.close();
  }
}

/**
 * Opens `path`, runs `prepare` (edits), then the kit's roles, names and states on every element,
 * and compares them with Chromium's.
 */
function compare(path: string, prepare?: (page: Page) => Promise<void>): Promise<Comparison> {
  return onKitPage(path, async (page) => {
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
      const exception = path === "/roles" ? EXCEPTIONS[key] : undefined;
      const outcome = compareElement(key, kit, theirs, exception);
      if (outcome.kind === "ruled") {
        result.ruled[outcome.rule] = (result.ruled[outcome.rule] ?? 0) + 1;
      } else if (outcome.kind === "differ") result.differences.push(...outcome.differences);
      else result[outcome.kind]++;
    }
    return result;
  });
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
    await onKitPage("/roles", async (page) => {
      await edit(page);
      const ours = await page.evaluate("__rolesReport()") as Record<string, Kit>;
      const seen = Object.fromEntries(Object.keys(STATES).map((id) => [id, ours[id].states]));
      assertEquals(seen, STATES);
    });
  },
});

Deno.test({
  name: "a name stops reading contents after CONTENT_CAP, so a huge role=button stays cheap",
  ignore: gate.ignore,
  async fn() {
    await onKitPage("/roles", async (page) => {
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
    });
  },
});
