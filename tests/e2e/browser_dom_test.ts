/**
 * Reading pages and interacting with elements, end to end: real hub, real Chromium with the
 * installed extension (its DOM kit injected into the pages), the test web app's `/form`,
 * `/csp-form` and `/long` pages. Every result is checked against what really happened in the
 * page, read with playwright: the field's value, the selected option, the page's own event log.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

/** The `/form` page's own event log (`#log li`). */
const eventLog = (page: Page) => page.locator("#log li").allTextContents();

e2eTest(import.meta.url, "page reading and element tools in a real Chromium", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e, mcp }) => {
  const form = await e2e.open("/form?tab=form");
  const tabId = await tabIdOf(e2e, form);
  const long = await e2e.open("/long?tab=long");
  const longTab = await tabIdOf(e2e, long);
  const call = (name: string, args: Record<string, unknown>, tab = tabId) =>
    callTool(e2e, name, { tabId: tab, ...args });
  const MARKER = /\n…\[truncated: showed (\d+) of (\d+) characters\. Pass a selector/;

  await t.step("browser_get_page_text reads visible text, capped with a marker", async () => {
    const page = ok(await call("browser_get_page_text", {}), "text");
    assertEquals([page.tabId, page.url, page.title], [tabId, form.url(), "Form"]);
    assertEquals(page.text, await form.evaluate<string>("document.body.innerText"));
    assertEquals([page.truncated, page.totalLength], [false, page.text.length]);
    assert(!page.text.includes("addEventListener"), "script text is not visible text");
    const plain = ok(await call("browser_get_page_text", { selector: "#plain" }), "#plain");
    assertEquals([plain.text, plain.truncated], ["Plain paragraph", false]);

    const full = await long.evaluate<string>("document.body.innerText");
    assert(full.length > 30_000, `the long page is ${full.length} characters`);
    const capped = ok(await call("browser_get_page_text", {}, longTab), "long text");
    assertEquals([capped.truncated, capped.totalLength], [true, full.length]);
    assert(capped.text.startsWith(full.slice(0, 20_000)));
    assertEquals(MARKER.exec(capped.text.slice(20_000))?.slice(1), ["20000", `${full.length}`]);
    const small = ok(await call("browser_get_page_text", { maxLength: 500 }, longTab), "500");
    assertEquals(small.text.slice(0, 500), full.slice(0, 500));
    assertMatch(small.text.slice(500), /^\n…\[truncated: showed 500 of \d+ characters/);
    failed(await call("browser_get_page_text", { maxLength: 200_001 }, longTab), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      message: /maxLength/,
    });
  });

  await t.step("browser_get_page_html returns the live outerHTML (REST and MCP)", async () => {
    const whole = ok(await call("browser_get_page_html", {}), "html");
    assertEquals([whole.tabId, whole.url, whole.truncated], [tabId, form.url(), false]);
    assertEquals(whole.html, await form.evaluate<string>("document.documentElement.outerHTML"));
    const select = await mcp.callTool({
      name: "browser_get_page_html",
      arguments: { tabId, selector: "#color" },
    });
    assert(!select.isError, JSON.stringify(select));
    const value = select.structuredContent as Record<string, unknown>;
    assertEquals(value.html, await form.locator("#color").evaluate((e) => e.outerHTML));
    const cut = ok(await call("browser_get_page_html", { maxLength: 100 }), "html 100");
    assertEquals(cut.html.slice(0, 100), whole.html.slice(0, 100));
    assertEquals([cut.truncated, cut.totalLength], [true, whole.html.length]);
    assertMatch(cut.html.slice(100), MARKER);
  });

  await t.step("browser_query_elements describes the matches", async () => {
    const inputs = ok(await call("browser_query_elements", { selector: "input" }), "inputs");
    assertEquals(inputs.total, await form.locator("input").count());
    assertEquals(inputs.elements.length, inputs.total);
    const [name] = inputs.elements;
    assertEquals([name.index, name.tag, name.visible], [0, "input", true]);
    assertEquals(name.attributes, { id: "name", name: "name", placeholder: "Your name" });
    const box = (await form.locator("#name").boundingBox())!;
    for (const key of ["x", "y", "width", "height"] as const) {
      assert(Math.abs(name.rect[key] - box[key]) <= 1, `${key}: ${name.rect[key]} ${box[key]}`);
    }
    const agree = inputs.elements.find((e: { attributes: { id: string } }) =>
      e.attributes.id === "agree"
    );
    assertEquals(agree.attributes, {
      id: "agree",
      type: "checkbox",
      name: "agree",
      checked: false,
    });
    const locked = ok(await call("browser_query_elements", { selector: "#locked" }), "locked");
    assertEquals(locked.elements[0].attributes.value, "fixed");
    const options = ok(
      await call("browser_query_elements", { selector: "option", limit: 2 }),
      "opt",
    );
    assertEquals([options.total, options.elements.length], [4, 2]);
    assertEquals(options.elements[1].text, "Red");
    assertEquals(options.elements[1].attributes, { value: "r", selected: false });
    // An element hidden from people is left out (counted), and listed with includeHidden.
    assertEquals(
      ok(await call("browser_query_elements", { selector: "#revealed" }), "hidden left out"),
      { tabId, total: 0, elements: [], hiddenLeftOut: 1 },
    );
    const hidden = ok(
      await call("browser_query_elements", { selector: "#revealed", includeHidden: true }),
      "hidden",
    );
    assertEquals(hidden.elements[0].visible, false);
    const none = ok(await call("browser_query_elements", { selector: ".nothing" }), "none");
    assertEquals(none, { tabId, total: 0, elements: [] });
  });

  await t.step("browser_wait_for_element waits for attached or visible", async () => {
    const attached = ok(
      await call("browser_wait_for_element", { selector: "#revealed", state: "attached" }),
      "attached",
    );
    assertEquals([attached.element.tag, attached.element.visible], ["div", false]);
    assert(attached.waitedMs < 1_000, `waited ${attached.waitedMs} ms`);
    const started = Date.now();
    failed(await call("browser_wait_for_element", { selector: "#revealed", timeoutMs: 300 }), {
      status: 422,
      code: "WAIT_TIMEOUT",
      category: "timeout",
      message:
        /"#revealed" was visible .* within 300 ms \(1 matching element is there, but hidden\)/,
    });
    assert(Date.now() - started < 3_000, "the wait ended near its timeout");
    ok(await call("browser_click_element", { selector: "#reveal" }), "click #reveal");
    const visible = ok(
      await call("browser_wait_for_element", { selector: "#revealed" }),
      "vis",
    );
    assertEquals([visible.element.text, visible.element.visible], ["Revealed!", true]);
    assert(visible.waitedMs >= 100, `appeared 400 ms after the click: ${visible.waitedMs}`);
    assertEquals(await form.locator("#revealed").isVisible(), true);

    const late = await e2e.open("/late?ms=800&tab=wait");
    try {
      const lateTab = await tabIdOf(e2e, late);
      const found = ok(
        await call("browser_wait_for_element", { selector: "#late" }, lateTab),
        "late",
      );
      assertEquals(found.element.text, "arrived after 800 ms");
      assertEquals(await late.locator("#late").count(), 1);
    } finally {
      await late.close();
    }
  });

  await t.step("browser_type_text types into fields the page's framework sees", async () => {
    await form.evaluate("document.getElementById('log').textContent = ''");
    const typed = ok(
      await call("browser_type_text", { selector: "#name", text: "Ada" }),
      "type",
    );
    assertEquals(typed, { tabId, tag: "input", value: "Ada", input: "trusted" });
    assertEquals(await form.locator("#name").inputValue(), "Ada");
    // As after a person's typing: no change while the field has focus.
    assertEquals(await eventLog(form), ["input #name", "tracked-change Ada"]);
    ok(
      await call("browser_type_text", { selector: "#name", text: " L.", clear: false }),
      "append",
    );
    assertEquals(await form.locator("#name").inputValue(), "Ada L.");
    ok(await call("browser_type_text", { selector: "#bio", text: "line 1\nline 2" }), "bio");
    assertEquals(await form.locator("#bio").inputValue(), "line 1\nline 2");
    assertEquals(await eventLog(form), [
      "input #name",
      "tracked-change Ada",
      "input #name",
      "tracked-change Ada L.",
      // The browser's own change, once, as #name loses focus.
      "change #name",
      // Chromium inserts a line break apart from the text around it.
      "input #bio",
      "input #bio",
      "input #bio",
    ]);
    const rich = ok(
      await call("browser_type_text", { selector: "#editor", text: "Rich" }),
      "ce",
    );
    assertEquals([rich.tag, rich.value], ["div", "Rich"]);
    assertEquals(await form.locator("#editor").innerText(), "Rich");

    await form.evaluate("document.getElementById('log').textContent = ''");
    const viaMcp = await mcp.callTool({
      name: "browser_type_text",
      arguments: { tabId, selector: "#email", text: "ada@example.com", submit: true },
    });
    assert(!viaMcp.isError, JSON.stringify(viaMcp));
    assertEquals((viaMcp.structuredContent as { submitted: string }).submitted, "form");
    await eventually(
      async () => (await form.locator("#submitted").textContent())!.includes("email=ada"),
      () => "the form was not submitted",
    );
    assertMatch(
      (await form.locator("#submitted").textContent())!,
      /^name=Ada\+L\.&email=ada%40/,
    );

    const blocked = ok(
      await call("browser_type_text", { selector: "#email", text: "nope", submit: true }),
      "invalid email",
    );
    assertEquals(blocked.submitted, "blocked");
    assertMatch(blocked.validationMessage, /^email: /);
    const submits = (await eventLog(form)).filter((l) => l.startsWith("submit "));
    assertEquals(submits.length, 1, "the invalid form was not submitted");
    // Submitting, the field lost focus first (as when a person clicks Save): the browser's change
    // came before submit, and leaving the field later fires no second one.
    ok(await call("browser_press_key", { selector: "#name", key: "Shift" }), "leave #email");
    assertEquals((await eventLog(form)).filter((l) => !l.startsWith("key")), [
      "input #email",
      "change #email",
      submits[0],
      "input #email",
      "change #email",
    ]);
  });

  await t.step("browser_type_text refuses what takes no text (NOT_EDITABLE)", async () => {
    for (
      const [selector, why] of [
        ["#plain", /is a <p>, not an input/],
        ["#locked", /is read-only/],
        ["#agree", /<input type="checkbox">/],
      ] as const
    ) {
      failed(await call("browser_type_text", { selector, text: "x" }), {
        status: 422,
        code: "NOT_EDITABLE",
        category: "validation",
        message: why,
      });
    }
    assertEquals(await form.locator("#locked").inputValue(), "fixed");
  });

  await t.step("browser_select_option selects by value, label or index", async () => {
    const byValue = ok(
      await call("browser_select_option", { selector: "#color", value: "g" }),
      "g",
    );
    assertEquals(byValue, {
      tabId,
      selected: [{ value: "g", label: "Green", index: 2 }],
      input: "synthetic",
    });
    assertEquals(await form.locator("#color").inputValue(), "g");
    assert((await eventLog(form)).includes("change #color"));
    const byLabel = ok(
      await call("browser_select_option", { selector: "#color", label: "red" }),
      "r",
    );
    assertEquals(byLabel.selected, [{ value: "r", label: "Red", index: 1 }]);
    assertEquals(await form.locator("#color").inputValue(), "r");
    ok(await call("browser_select_option", { selector: "#color", index: 0 }), "index 0");
    assertEquals(await form.locator("#color").inputValue(), "");

    failed(await call("browser_select_option", { selector: "#color", value: "x" }), {
      status: 422,
      code: "OPTION_NOT_FOUND",
      message: /no option with value "x"\. Its options: 0: "Pick one" .*1: "Red" \(value "r"\)/,
    });
    failed(await call("browser_select_option", { selector: "#color", value: "b" }), {
      status: 422,
      code: "OPTION_DISABLED",
    });
    failed(await call("browser_select_option", { selector: "#name", value: "x" }), {
      status: 422,
      code: "NOT_A_SELECT",
      message: /is a <input>, not a <select>/,
    });
    failed(await call("browser_select_option", { selector: "#color", value: "r", index: 1 }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      message: /exactly one of value, label or index/,
    });
    assertEquals(await form.locator("#color").inputValue(), "", "nothing changed");
  });

  await t.step("browser_press_key sends key events and does what the key would", async () => {
    ok(await call("browser_type_text", { selector: "#name", text: "" }), "clear #name");
    ok(await call("browser_type_text", { selector: "#email", text: "" }), "valid #email");
    await form.evaluate("document.getElementById('log').textContent = ''");
    const a = ok(await call("browser_press_key", { selector: "#name", key: "a" }), "a");
    assertEquals(a, {
      tabId,
      key: "a",
      modifiers: [],
      target: { tag: "input", id: "name", name: "name" },
      effect: "inserted",
      input: "trusted",
    });
    ok(await call("browser_press_key", { key: "B", modifiers: ["Shift"] }), "Shift+B");
    assertEquals(await form.locator("#name").inputValue(), "aB");
    assertEquals(await eventLog(form), [
      // #email, typed into by trusted input, gets the browser's own change as it loses focus.
      "change #email",
      "keydown a KeyA - #name",
      "keypress a KeyA - #name",
      "input #name",
      "tracked-change a",
      "keyup a KeyA - #name",
      "keydown Shift ShiftLeft Shift #name",
      "keydown B KeyB Shift #name",
      "keypress B KeyB Shift #name",
      "input #name",
      "tracked-change aB",
      "keyup B KeyB Shift #name",
      "keyup Shift ShiftLeft - #name",
    ]);
    ok(await call("browser_press_key", { key: "Backspace" }), "Backspace");
    assertEquals(await form.locator("#name").inputValue(), "a");
    const ctrl = ok(
      await call("browser_press_key", { key: "a", modifiers: ["Control"] }),
      "^a",
    );
    assertEquals(ctrl.effect, "none", "a shortcut types nothing");
    assertEquals(await form.locator("#name").inputValue(), "a");
    assert((await eventLog(form)).includes("keydown a KeyA Control #name"));

    const enter = ok(await call("browser_press_key", { selector: "#name", key: "enter" }), "⏎");
    assertEquals([enter.key, enter.effect], ["Enter", "submitted"]);
    await eventually(
      async () => (await eventLog(form)).some((l) => l.startsWith("submit name=a&")),
      async () => `no submit in ${JSON.stringify(await eventLog(form))}`,
    );
    ok(await call("browser_type_text", { selector: "#bio", text: "one" }), "bio");
    ok(await call("browser_press_key", { selector: "#bio", key: "Enter" }), "⏎ in textarea");
    ok(await call("browser_press_key", { key: "2" }), "2");
    assertEquals(await form.locator("#bio").inputValue(), "one\n2");
    const escape = ok(await call("browser_press_key", { key: "Escape" }), "Escape");
    assertEquals([escape.target.id, escape.effect], ["bio", "none"]);
    assert((await eventLog(form)).includes("keydown Escape Escape - #bio"));
    failed(await call("browser_press_key", { key: "Entr" }), {
      status: 422,
      code: "INVALID_KEY",
      message: /"Entr" is not a key .* Enter, Tab, Escape/,
    });
  });

  await t.step("browser_hover_element runs the page's hover handlers", async () => {
    const hovered = ok(
      await call("browser_hover_element", { selector: "#hover-target" }),
      "hover",
    );
    assertEquals(hovered, { tabId, tag: "div", text: "Hovered!", input: "trusted" });
    assertEquals(await form.locator("#hover-target").textContent(), "Hovered!");
    assertEquals(await form.locator("#hover-target.hovered").count(), 1);
    ok(await call("browser_hover_element", { selector: "#plain" }), "hover elsewhere");
    assertEquals(await form.locator("#hover-target").textContent(), "Hover me");
    const log = await eventLog(form);
    assert(
      log.includes("mouseenter #hover-target") && log.includes("mouseleave #hover-target"),
    );
  });

  await t.step("browser_scroll scrolls by pixels, to an edge or to an element", async () => {
    const scrollY = () => long.evaluate<number>("scrollY");
    const top = ok(await call("browser_scroll", {}, longTab), "read position");
    assertEquals(top.scrollY, 0);
    assertEquals(
      top.scrollHeight,
      await long.evaluate<number>("document.documentElement.scrollHeight"),
    );
    assertEquals(
      top.viewportHeight,
      await long.evaluate<number>("document.documentElement.clientHeight"),
    );
    const by = ok(await call("browser_scroll", { y: 500 }, longTab), "y 500");
    assertEquals([by.scrollY, await scrollY()], [500, 500]);
    const bottom = ok(await call("browser_scroll", { to: "bottom" }, longTab), "bottom");
    assertEquals(bottom.scrollY, bottom.scrollHeight - bottom.viewportHeight);
    assertEquals(await scrollY(), bottom.scrollY);
    assertEquals(await long.locator("#end").isVisible(), true);
    ok(await call("browser_scroll", { to: "top" }, longTab), "top");
    assertEquals(await scrollY(), 0);
    const shown = ok(await call("browser_scroll", { selector: "#p-150" }, longTab), "#p-150");
    assert(shown.scrollY > 0 && shown.scrollY === await scrollY());
    const box = (await long.locator("#p-150").boundingBox())!;
    const middle = box.y + box.height / 2;
    assert(Math.abs(middle - shown.viewportHeight / 2) < 2, `centered: ${middle}`);
    failed(await call("browser_scroll", { to: "top", y: 10 }, longTab), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      message: /x\/y or to, not both/,
    });
  });

  await t.step("the kit works on a strict-CSP page: text, click, type, query", async () => {
    const csp = await e2e.open("/csp-form?tab=csp");
    try {
      const cspTab = await tabIdOf(e2e, csp);
      const text = ok(await call("browser_get_page_text", {}, cspTab), "csp text");
      assertMatch(text.text, /Text under a strict policy/);
      ok(await call("browser_click_element", { selector: "#csp-check" }, cspTab), "csp click");
      assertEquals(await csp.locator("#csp-check").isChecked(), true);
      ok(
        await call("browser_type_text", { selector: "#q", text: "typed" }, cspTab),
        "csp type",
      );
      assertEquals(await csp.locator("#q").inputValue(), "typed");
      const q = ok(await call("browser_query_elements", { selector: "#q" }, cspTab), "csp q");
      assertEquals(q.elements[0].attributes.value, "typed");
    } finally {
      await csp.close();
    }
  });

  await t.step("bad selectors, missing elements and closed tabs fail clearly", async () => {
    const tools: [string, Record<string, unknown>][] = [
      ["browser_get_page_text", {}],
      ["browser_get_page_html", {}],
      ["browser_query_elements", {}],
      ["browser_wait_for_element", { timeoutMs: 100 }],
      ["browser_click_element", {}],
      ["browser_type_text", { text: "x" }],
      ["browser_select_option", { index: 0 }],
      ["browser_press_key", { key: "a" }],
      ["browser_scroll", {}],
      ["browser_hover_element", {}],
    ];
    for (const [name, args] of tools) {
      failed(await call(name, { ...args, selector: "div[[" }), {
        status: 422,
        code: "INVALID_SELECTOR",
        category: "validation",
        message: /^"div\[\[" is not a valid CSS selector/,
      });
    }
    const notFound =
      /No element matches "#nope" on http:\/\/127\.0\.0\.1:\d+\/form\?tab=form\. .*browser_query_elements/;
    for (const [name, args] of tools) {
      if (name === "browser_query_elements" || name === "browser_wait_for_element") continue;
      failed(await call(name, { ...args, selector: "#nope" }), {
        status: 422,
        code: "ELEMENT_NOT_FOUND",
        category: "not_found",
        message: notFound,
      });
    }
    const gone = await e2e.open("/form?tab=gone");
    const goneTab = await tabIdOf(e2e, gone);
    await gone.close();
    await eventually(
      async () =>
        (await call("browser_list_tabs", {})).body.structuredContent.tabs
          .every((tab: { tabId: number }) => tab.tabId !== goneTab),
      () => `tab ${goneTab} never went away`,
    );
    for (const [name, args] of tools.slice(0, 3)) {
      failed(await call(name, { ...args, selector: "h1" }, goneTab), {
        status: 404,
        code: "TAB_NOT_FOUND",
        message: new RegExp(`No tab ${goneTab}`),
      });
    }
  });
});
