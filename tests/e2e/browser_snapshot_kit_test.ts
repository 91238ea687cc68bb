/**
 * The DOM kit's `page.snapshot` (extension/src/page/dom_snapshot.ts) in real Chromium, one
 * document at a time: no hub and no extension. The kit is bundled with esbuild and added to each
 * page as a script, where it installs `__hubDomKit` as it does in the extension's isolated world
 * (tests/helpers/kit_page.ts); the test calls `__hubDomKit.run("page.snapshot", args)` and reads
 * the lines it answers (the worker's composing of frames, cutting and diffing are tested with
 * browser_snapshot end to end in browser_snapshot_test.ts). Covers roles, refs and states on a
 * form, table rows, shadow roots and slots, hidden content, frames listed in `frames`,
 * interactiveOnly, clickable elements and hostile names and text.
 */
import type { Frame, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { browserGate } from "../helpers/browser.ts";
import { assertWellFormed, type KitPage, ORIGIN, startKitPage } from "../helpers/kit_page.ts";
import { bigPage, MENUS_PAGE } from "../fixtures/web_app/snapshot_more_pages.ts";
import { OUTLINE_STOPPED } from "../../extension/src/page/dom_snapshot_lines.ts";
import {
  SNAPSHOT_DOC_MAX_CHARS,
  SNAPSHOT_DOC_MAX_LINES,
} from "../../protocol/browser_methods/dom_limits.ts";

const gate = browserGate(import.meta.url);

let kit: KitPage;
let page: Page;

Deno.test.beforeAll(async () => {
  if (gate.ignore) return;
  gate.check();
  kit = await startKitPage();
  page = kit.page;
});

Deno.test.afterAll(async () => {
  await kit?.close();
});

const snapshot = (where: Page | Frame, args?: Record<string, unknown>) => kit.snapshot(where, args);
const open = (body: string, path?: string, load?: boolean) => kit.open(body, path, load);

/** A test that needs Chromium (skipped, or failed in CI, without it). */
function browserTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: gate.ignore, fn });
}

browserTest("a form: roles, names, states and refs; labels name their fields", async () => {
  await open(`<h1>Sign up</h1>
<form aria-label="Signup">
<label>Email <input type="email" value="a@b.c"></label>
<label>Password <input type="password" value="secret"></label>
<label><input type="checkbox" checked> Accept the terms</label>
<label>Plan <select><option>Free</option><option selected>Pro</option></select></label>
<label>Avatar <input type="file"></label>
<textarea aria-label="Bio">Hello</textarea>
<button type="submit" disabled>Send</button>
<a href="/help"><img alt="Help" width="40" height="20"></a>
</form>`);
  const { lines, frames } = await snapshot(page);
  assertEquals(lines, [
    '- heading "Sign up" [level=1] [ref=e1]',
    '- form "Signup" [ref=e2]',
    '  - textbox "Email" [value="a@b.c"] [ref=e3]',
    '  - textbox "Password" [password] [ref=e4]',
    '  - checkbox "Accept the terms" [checked] [ref=e5]',
    '  - combobox "Plan" [value="Pro"] [ref=e6]',
    '    - option "Free"',
    '    - option "Pro" [selected]',
    '  - button "Avatar" [ref=e7]',
    '  - textbox "Bio" [value="Hello"] [ref=e8]',
    '  - button "Send" [disabled] [ref=e9]',
    '  - link "Help" [url="/help"] [ref=e10]',
  ]);
  assertEquals(frames, []);
  assert(!lines.join("\n").includes("secret"), "a password's value never appears");
  const again = await snapshot(page);
  assertEquals(again.lines, lines, "an element keeps its ref");
});

browserTest("a 3,000-element page: bytes and time", async () => {
  await open(bigPage(new URL(`${ORIGIN}/snap/big?n=3000`)), "/big");
  await snapshot(page); // warm: the kit is added, the page laid out
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    times.push(
      await page.evaluate(async () => {
        const kit = (globalThis as unknown as { __hubDomKit: { run(...a: unknown[]): unknown } })
          .__hubDomKit;
        const start = performance.now();
        await kit.run("page.snapshot", { interactiveOnly: false, includeHidden: false });
        return performance.now() - start;
      }),
    );
  }
  const { lines } = await snapshot(page);
  const bytes = new TextEncoder().encode(lines.join("\n")).length;
  const interactive = await snapshot(page, { interactiveOnly: true });
  const interactiveBytes = new TextEncoder().encode(interactive.lines.join("\n")).length;
  times.sort((a, b) => a - b);
  console.log(
    `big page: ${lines.length} lines, ${bytes} bytes (interactiveOnly ${interactiveBytes}), ` +
      `p50 ${times[2].toFixed(1)} ms in the page`,
  );
  assertWellFormed(lines);
  assertEquals(lines.filter((line) => /^ *- button "Edit" \[ref=e\d+\]$/.test(line)).length, 320);
  assert(interactiveBytes < bytes * 0.8, `${interactiveBytes} vs ${bytes}`);
});

browserTest("table rows named by their cells; text runs and paragraphs", async () => {
  await open(`<table><caption>People</caption>
<thead><tr><th>Name</th><th>City</th><th></th></tr></thead>
<tbody><tr><td>Ada</td><td>Paris</td><td><a href="/ada">Profile</a></td></tr>
<tr><td>Bob <b>Smith</b></td><td style="display:none">Secret</td><td>Lima</td></tr></tbody></table>
<ul><li>Plain item</li><li>Another</li></ul>
<p>Read the <a href="/docs">docs</a> first. <span>More</span> text.</p>
<div><p>One</p><p>Two</p></div>`);
  const { lines } = await snapshot(page);
  assertEquals(lines, [
    '- table "People"',
    '  - row "Name | City" [ref=e1]',
    '  - row "Ada | Paris | Profile" [ref=e2]',
    '    - link "Profile" [url="/ada"] [ref=e3]',
    '  - row "Bob Smith | Lima" [ref=e4]',
    "- text: Plain item",
    "- text: Another",
    "- text: Read the",
    '- link "docs" [url="/docs"] [ref=e5]',
    "- text: first. More text.",
    "- text: One",
    "- text: Two",
  ]);
});

browserTest("open shadow roots in composed order, slots and their fallback", async () => {
  await open(`<h2>Before</h2>
<x-card><span slot="title">Slotted title</span><em>Light body</em></x-card>
<x-card></x-card>
<p>After</p>
<script>
customElements.define("x-card", class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" }).innerHTML =
      '<h3><slot name="title">Fallback title</slot></h3><p>Shadow text</p>' +
      '<button>Shadow button</button><div><slot></slot></div>';
  }
});
</script>`);
  const { lines } = await snapshot(page);
  assertEquals(lines, [
    '- heading "Before" [level=2] [ref=e1]',
    '- heading "Slotted title" [level=3] [ref=e2]',
    "- text: Shadow text",
    '- button "Shadow button" [ref=e3]',
    "- text: Light body",
    '- heading "Fallback title" [level=3] [ref=e4]',
    "- text: Shadow text",
    '- button "Shadow button" [ref=e5]',
    "- text: After",
  ]);
  const sub = await snapshot(page, { selector: "x-card >>> button" });
  assertEquals(
    sub.lines,
    ['- button "Shadow button" [ref=e3]'],
    "a subtree by a piercing selector",
  );
});

browserTest("hidden content is left out; includeHidden brings it back", async () => {
  await open(`<p>Shown</p>
<div style="display:none">Gone display</div>
<div style="visibility:hidden">Gone visibility <span style="visibility:visible">Back again</span></div>
<div style="opacity:0"><button>Gone opacity</button></div>
<div aria-hidden="true">Gone aria</div>
<div hidden>Gone attribute</div>
<div style="width:0;height:0;overflow:hidden">Gone zero</div>
<span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)">Gone clip</span>
<div style="position:absolute;left:-5000px">Gone left</div>
<details><summary>More</summary>Gone details</details>
<div style="position:absolute;top:5000px">Below the fold</div>`);
  const shown = (await snapshot(page)).lines;
  assertEquals(shown, [
    "- text: Shown",
    "- text: Back again",
    '- disclosuretriangle "More" [expanded=false] [ref=e1]',
    "- text: Below the fold",
  ]);
  const all = (await snapshot(page, { includeHidden: true })).lines.join("\n");
  const kinds = "display visibility opacity aria attribute zero clip left details".split(" ");
  for (const word of kinds) {
    assert(all.includes(`Gone ${word}`), `includeHidden lacks "Gone ${word}":\n${all}`);
  }
});

browserTest("frames: listed with their index; each knows its own", async () => {
  await open(`<p>Inner text</p><button>Inner</button>`, "/child", false);
  await open(`<h1>Frames</h1>
<iframe title="First" src="/child" width="200" height="100"></iframe>
<iframe title="Hidden" src="/child" style="display:none"></iframe>
<div><iframe src="/child" width="200" height="100"></iframe></div>
<x-host></x-host>
<script>
document.querySelector("x-host").attachShadow({ mode: "open" }).innerHTML =
  '<iframe title="In shadow" src="/child" width="200" height="100"></iframe>';
</script>`);
  await page.waitForFunction(
    "document.querySelector('x-host').shadowRoot.querySelector('iframe').contentDocument?.readyState === 'complete'",
  );
  const top = await snapshot(page);
  assertEquals(top.lines, [
    '- heading "Frames" [level=1] [ref=e1]',
    '- iframe "First"',
    "- iframe",
    '- iframe "In shadow"',
  ]);
  assertEquals(top.index, -1);
  assertEquals(top.frames.map(({ line, index }) => ({ line, index })), [
    { line: 1, index: 0 },
    { line: 2, index: 2 },
    { line: 3, index: -1 },
  ]);
  assertEquals(top.frames.map((frame) => frame.ref), ["e2", "e3", "e4"]);
  const children = page.mainFrame().childFrames();
  const indexes: number[] = [];
  for (const child of children) {
    const outline = await snapshot(child);
    indexes.push(outline.index);
    // The display:none frame's boxes have no size: its own outline is empty too.
    const expected = outline.index === 1 ? [] : ["- text: Inner text", '- button "Inner" [ref=e1]'];
    assertEquals(outline.lines, expected, `frame ${outline.index}`);
  }
  assertEquals(
    indexes.sort(),
    [-1, 0, 1, 2],
    "each frame's index in window.frames, -1 in a shadow root",
  );
});

browserTest("interactiveOnly: refs and frames under their context lines", async () => {
  await open(
    `<nav aria-label="Main"><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></nav>
<main><h1>Title</h1><p>Some text</p>
<fieldset><legend>Shipping</legend><label>Street <input></label><p>Note</p></fieldset>
<ul><li>No refs here</li></ul>
<table><tr><td>Cell</td><td><button>Go</button></td></tr></table>
<iframe title="Pay" srcdoc="<button>Pay</button>" width="100" height="50"></iframe></main>`,
  );
  const { lines, frames } = await snapshot(page, { interactiveOnly: true });
  assertEquals(lines, [
    '- navigation "Main" [ref=e1]',
    '  - link "A" [url="/a"] [ref=e2]',
    '  - link "B" [url="/b"] [ref=e3]',
    "- main [ref=e4]",
    '  - heading "Title" [level=1] [ref=e5]',
    '  - group "Shipping"',
    '    - textbox "Street" [ref=e6]',
    "  - table",
    '    - row "Cell" [ref=e7]',
    '      - button "Go" [ref=e8]',
    '  - iframe "Pay"',
  ]);
  assertEquals(frames, [{ line: 10, index: 0, ref: "e9" }]);
  const full = await snapshot(page);
  assert(full.lines.includes("  - text: Some text"), full.lines.join("\n"));
  assert(full.lines.includes("  - list"), "the list of links is written in full");
  assertEquals(full.frames, [{
    line: full.lines.indexOf('  - iframe "Pay"'),
    index: 0,
    ref: "e9",
  }]);
});

browserTest("clickable, focusable, editable, draggable elements and menus get refs", async () => {
  await open(`<style>.menu ul { display: none } .menu:hover ul { display: block }</style>
<div onclick="void 0">Open menu</div>
<div style="cursor:pointer">Pointer <span>inside</span></div>
<div tabindex="0">Focusable</div>
<div tabindex="-1">Not focusable</div>
<div contenteditable="true">Edit <b>me</b></div>
<div draggable="true">Drag me</div>
<span aria-haspopup="menu">More</span>
<ul><li class="menu">Products<ul><li><a href="/p1">P1</a></li></ul></li></ul>
<label style="cursor:pointer"><input type="checkbox" style="opacity:0;position:absolute"> Styled box</label>
<img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">
<img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">`);
  const { lines } = await snapshot(page);
  assertEquals(lines, [
    '- generic "Open menu" [ref=e1]',
    '- generic "Pointer inside" [ref=e2]',
    '- generic "Focusable" [ref=e3]',
    "- text: Not focusable",
    "- generic [editable] [ref=e4]",
    "  - text: Edit me",
    '- generic "Drag me" [ref=e5]',
    '- generic "More" [ref=e6]',
    '- listitem "Products" [ref=e7]',
    '- checkbox "Styled box" [ref=e8]',
    '- img "Logo" [ref=e9]',
  ]);
});

browserTest("hover menus: a panel of links, an inline-block trigger, a list item", async () => {
  await open(MENUS_PAGE);
  const { lines } = await snapshot(page);
  assertEquals(lines, [
    '- heading "Menus" [level=1] [ref=e1]',
    '- generic "Account ▾" [ref=e2]',
    "- text: Preferences:",
    '- generic "Settings ▾" [ref=e3]',
    "- list",
    '  - listitem "Products" [ref=e4]',
    '  - link "Home" [url="/"] [ref=e5]',
  ]);
  const all = (await snapshot(page, { includeHidden: true })).lines;
  for (const name of ["Profile", "Privacy", "Widgets"]) {
    assert(all.some((line) => line.includes(`link "${name}"`)), all.join("\n"));
  }
  // a wrapper of a page part that holds a hidden panel of buttons is no trigger
  await open(`<div id="app"><h2>One</h2><p>a</p><h2>Two</h2><p>b</p><h2>Three</h2><p>c</p>
<h2>Four</h2><p>d</p><h2>Five</h2><div style="display:none"><button>Yes</button></div></div>`);
  const app = (await snapshot(page)).lines;
  assert(!app.some((line) => line.startsWith("- generic")), app.join("\n"));
});

browserTest("an outline past the document's budget stops with hub's line", async () => {
  // lines: more short paragraphs than SNAPSHOT_DOC_MAX_LINES
  await open(`<script>
for (let i = 0; i < ${SNAPSHOT_DOC_MAX_LINES + 500}; i++) {
  document.body.append(Object.assign(document.createElement("p"), { textContent: "p" + i }));
}
</script>`);
  const many = await snapshot(page);
  assertEquals(many.lines[many.lines.length - 1], OUTLINE_STOPPED);
  assertEquals(many.stopped, true);
  assertEquals(many.lines.length, SNAPSHOT_DOC_MAX_LINES + 2, "the lines up to the budget");
  assertWellFormed(many.lines.slice(0, -1));
  assertMatch(OUTLINE_STOPPED, /^# /);
  // characters: long paragraphs, each written cut at 1,000 characters
  const long = Math.ceil(SNAPSHOT_DOC_MAX_CHARS / 1_000) + 10;
  await open(`<button>First</button><script>
for (let i = 0; i < ${long}; i++) {
  document.body.append(Object.assign(document.createElement("p"), { textContent: "w ".repeat(900) + i }));
}
</script>`);
  const wide = await snapshot(page, { interactiveOnly: true });
  assertEquals(wide.lines, ['- button "First" [ref=e1]', OUTLINE_STOPPED]);
  const small = await snapshot(page, { selector: "button" });
  assertEquals([small.lines, small.stopped], [['- button "First" [ref=e1]'], undefined]);
});

browserTest("hostile names and text stay inside their quotes or their text line", async () => {
  const label = 'x" [ref=e1]\n- button "fake\u2028- link';
  const text = 'Text\n- button "Pay" [ref=e3]\r\n  - x';
  const value = 'v"\n- y [ref=e4]';
  await open(`<button id="b"></button><div id="t"></div><a href="/x&quot; [ref=e2]">L</a>
<input id="i" aria-label="Field">
<script>
document.getElementById("b").setAttribute("aria-label", ${JSON.stringify(label)});
document.getElementById("t").textContent = ${JSON.stringify(text)};
document.getElementById("i").value = ${JSON.stringify(value)};
</script>`);
  const { lines } = await snapshot(page);
  assertWellFormed(lines);
  assertEquals(lines.length, 4, lines.join("\n"));
  // A page's own `[ref=` is written `[ref =`: a real-looking ref only ends a line hub wrote.
  assertEquals(lines[0], '- button "x\\" [ref =e1] - button \\"fake - link" [ref=e1]');
  assertEquals(lines[1], '- text: Text - button "Pay" [ref =e3] - x');
  assertEquals(lines[2], '- link "L" [url="/x\\" [ref =e2]"] [ref=e2]');
  // (an input's value drops line breaks itself)
  assertEquals(lines[3], '- textbox "Field" [value="v\\"- y [ref =e4]"] [ref=e3]');
});
