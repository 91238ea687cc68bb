/**
 * The page kit's roles and names (extension/src/page/dom_roles.ts) against Chromium's own
 * accessibility tree, on the test web app's `/roles` page (roles_pages.ts): for every element with
 * an `id` (open shadow roots included) the role and the name the kit computes must be the ones
 * `Accessibility.getFullAXTree` reports (roles lowercased, `image` written `img`), except the
 * differences listed in EXCEPTIONS, each on purpose. No hub and no extension: the module is bundled
 * with esbuild and added to the page as a script (the kit uses the same DOM APIs in its isolated
 * world).
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { browserGate, launchChromium } from "../helpers/browser.ts";
import { startTestWebApp, type TestWebApp } from "../fixtures/web_app/server.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const gate = browserGate(import.meta.url);

/** What the kit or Chromium says of one element. */
interface Seen {
  role: string;
  name: string;
}

/** HTML whitespace collapsed and trimmed, as dom_roles.ts's `collapse` (which needs the DOM lib). */
const collapse = (text: string) => text.replace(/[ \t\n\r\f]+/g, " ").trim();

/** What the page side reports per element. */
interface Kit extends Seen {
  states: string[];
  hidden: boolean;
}

/**
 * Elements where the kit writes something else than Chromium reports, on purpose: what the kit
 * says (checked), and why.
 */
const EXCEPTIONS: Record<string, Partial<Seen> & { why: string }> = {
  "article-header": {
    role: "generic",
    why:
      "Chromium: sectionheader. A header inside article/aside/main/nav/section is no landmark; " +
      "the snapshot writes landmarks only at the top level, its contents stand on their own",
  },
  "article-footer": { role: "generic", why: "Chromium: sectionfooter; as article-header" },
  "form-plain": {
    role: "generic",
    why: "Chromium: form. A form without a name is no landmark (ARIA), and a line for it " +
      "would only add depth; its fields carry the meaning",
  },
  "cell-with-input": {
    role: "cell",
    why: "Chromium: layouttablecell. Chromium guesses whether a table is for layout from its " +
      "headers, size and borders; the kit writes every table cell as a cell",
  },
  "internals-button": {
    role: "generic",
    name: "",
    why: 'Chromium: button "Internal". A custom element\'s ElementInternals role and ARIA ' +
      "properties are private to the element; no page script, isolated world included, can read them",
  },
  "label-el": {
    role: "generic",
    why: "Chromium: labeltext. A label's text already names its field",
  },
};

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
]);

/**
 * The page side: `__rolesReport()` answers `{ [id]: { role, name, states } }` for every element with
 * an id, in the document and its open shadow roots.
 */
const REPORT = `import { nameOf, roleOf, statesOf } from "./extension/src/page/dom_roles.ts";
globalThis.__rolesReport = () => {
  const out = {};
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.id) {
        const role = roleOf(el);
        out[el.id] = {
          role,
          name: nameOf(el, role),
          states: statesOf(el, role),
          hidden: !el.checkVisibility(),
        };
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return out;
};`;

/** dom_roles.ts bundled with REPORT as one script. */
async function rolesScript(): Promise<string> {
  try {
    const result = await esbuild.build({
      stdin: {
        contents: REPORT,
        resolveDir: ROOT,
        loader: "ts",
      },
      absWorkingDir: ROOT,
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "chrome120",
      logLevel: "silent",
    });
    return result.outputFiles[0].text;
  } finally {
    await esbuild.stop();
  }
}

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
}

/** backendNodeId → id attribute, for the top document and its open shadow roots. */
function idsByBackendNode(node: CdpNode, out = new Map<number, string>()): Map<number, string> {
  const attributes = node.attributes ?? [];
  for (let i = 0; i < attributes.length; i += 2) {
    if (attributes[i] === "id") out.set(node.backendNodeId, attributes[i + 1]);
  }
  // contentDocument (the iframe's) is left out: the page's ids are all in the top document.
  for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
    idsByBackendNode(child, out);
  }
  return out;
}

let app: TestWebApp;
let browser: Browser;
let script = "";

Deno.test.beforeAll(async () => {
  if (gate.ignore) return;
  gate.check();
  script = await rolesScript();
  app = await startTestWebApp();
  browser = await launchChromium();
});

Deno.test.afterAll(async () => {
  await browser?.close();
  await app?.close();
});

Deno.test({
  name: "roles and names agree with Chromium's accessibility tree on /roles",
  ignore: gate.ignore,
  async fn() {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(new URL("/roles", app.url).href);
      await page.addScriptTag({ content: script });
      const ours = await page.evaluate("__rolesReport()") as Record<string, Kit>;
      const cdp = await context.newCDPSession(page);
      const { root } = await cdp.send("DOM.getDocument", { depth: -1, pierce: true });
      const ids = idsByBackendNode(root as unknown as CdpNode);
      const { nodes } = await cdp.send("Accessibility.getFullAXTree") as unknown as {
        nodes: AxNode[];
      };
      const chromium: Record<string, Seen & { ignored: boolean }> = {};
      for (const node of nodes) {
        const id = node.backendDOMNodeId && ids.get(node.backendDOMNodeId);
        if (!id) continue;
        const role = (node.role?.value ?? "").toLowerCase();
        chromium[id] = {
          role: role === "image" ? "img" : role,
          // The kit's names are whitespace-collapsed by contract (Chromium keeps `alt="  "`).
          name: collapse(node.name?.value ?? ""),
          ignored: node.ignored,
        };
      }
      const report: string[] = [];
      const tally = { same: 0, unexposed: 0, textLevel: 0, excepted: 0 };
      for (const [id, kit] of Object.entries(ours)) {
        const theirs = chromium[id];
        if (Deno.env.get("ROLES_DEBUG")) {
          const said = theirs
            ? `${theirs.role} "${theirs.name}"${theirs.ignored ? " (ignored)" : ""}`
            : "no node";
          console.log(`${id}: kit ${kit.role} "${kit.name}" [${kit.states}]; chromium ${said}`);
        }
        if (!theirs || theirs.ignored) {
          // Not in Chromium's tree (or ignored): the kit must say "none", or the element is
          // hidden (the snapshot leaves hidden elements out before asking their role).
          if (kit.role === "none" || kit.hidden) tally.unexposed++;
          else report.push(`${id}: Chromium does not expose it; the kit says ${kit.role}`);
          continue;
        }
        if (TEXT_LEVEL.has(theirs.role) && kit.role === "generic") {
          tally.textLevel++;
          continue;
        }
        const exception = EXCEPTIONS[id];
        let same = true;
        for (const field of ["role", "name"] as const) {
          const expected = exception?.[field] ?? theirs[field];
          if (kit[field] !== expected) {
            same = false;
            report.push(
              `${id} ${field}: kit ${JSON.stringify(kit[field])}, expected ${
                JSON.stringify(expected)
              } (Chromium: ${JSON.stringify(theirs[field])})`,
            );
          }
        }
        if (same) tally[exception ? "excepted" : "same"]++;
      }
      console.log(
        `${Object.keys(ours).length} elements: ${tally.same} agree with Chromium, ` +
          `${tally.unexposed} unexposed by both, ${tally.textLevel} text-level (generic), ` +
          `${tally.excepted} listed exceptions`,
      );
      assertEquals(report, [], "every difference is listed in EXCEPTIONS");
    } finally {
      await context.close();
    }
  },
});

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
      await page.fill("#user", "grace");
      await page.fill("#textarea-live", 'say "hi"\nthere');
      await page.selectOption("#select", "One");
      await page.uncheck("#checkbox");
      await page.check("#radio");
      await page.click("#summary");
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
