import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { parseWithZod, registerBrowserTool } from "./browser_tool.ts";
import { getPageText } from "./get_page_text.ts";
import { getPageHtml } from "./get_page_html.ts";
import { queryElements } from "./query_elements.ts";
import { waitForElement } from "./wait_for_element.ts";
import { clickElement } from "./click_element.ts";
import { typeText } from "./type_text.ts";
import { selectOption } from "./select_option.ts";
import { pressKey } from "./press_key.ts";
import { scroll } from "./scroll.ts";
import { hoverElement } from "./hover_element.ts";
import { BROWSER_TOOLS } from "./mod.ts";
import type { BrowserTool } from "./browser_tool_interface.ts";

const DOM_TOOLS: [BrowserTool, string][] = [
  [getPageText, "page.text"],
  [getPageHtml, "page.html"],
  [queryElements, "dom.query"],
  [waitForElement, "dom.wait"],
  [clickElement, "dom.click"],
  [typeText, "dom.type"],
  [selectOption, "dom.select"],
  [pressKey, "dom.key"],
  [scroll, "dom.scroll"],
  [hoverElement, "dom.hover"],
];

function parsed(tool: BrowserTool, args: Record<string, unknown>) {
  const result = parseWithZod(tool.input, args);
  assert(result.ok, `${tool.name} ${JSON.stringify(args)}: ${JSON.stringify(result)}`);
  return result.input;
}

function problems(tool: BrowserTool, args: Record<string, unknown>): string {
  const result = parseWithZod(tool.input, args);
  assert(!result.ok, `${tool.name} accepted ${JSON.stringify(args)}`);
  return result.errors.join("; ");
}

Deno.test("the page and element tools are registered, each with its method and schema", () => {
  for (const [tool, method] of DOM_TOOLS) {
    assert(BROWSER_TOOLS.includes(tool), `${tool.name} is not in BROWSER_TOOLS`);
    assertEquals(tool.method, method);
    const registered = registerBrowserTool(tool);
    assertEquals(registered.inputSchema.type, "object");
    assert(tool.description.length > 80, `${tool.name} needs a description an agent can act on`);
  }
});

Deno.test("defaults: maxLength 20000, limit 20, visible within 10000 ms, clear without submit", () => {
  assertEquals(parsed(getPageText, {}), { maxLength: 20_000, includeHidden: false });
  assertEquals(parsed(getPageHtml, { selector: "form" }), { selector: "form", maxLength: 20_000 });
  assertEquals(parsed(queryElements, { selector: "a" }), {
    selector: "a",
    limit: 20,
    includeHidden: false,
  });
  assertEquals(parsed(waitForElement, { selector: "#x" }), {
    selector: "#x",
    state: "visible",
    timeoutMs: 10_000,
  });
  assertEquals(parsed(typeText, { selector: "#q", text: "" }), {
    selector: "#q",
    text: "",
    clear: true,
    submit: false,
    waitForLoad: true,
  });
});

Deno.test("limits: maxLength ≤ 200000, limit ≤ 100, timeoutMs ≤ 25000, selectors non-empty", () => {
  assertMatch(problems(getPageText, { maxLength: 200_001 }), /maxLength/);
  assertEquals(parsed(getPageText, { maxLength: 200_000 }).maxLength, 200_000);
  assertMatch(problems(getPageHtml, { maxLength: 0 }), /maxLength/);
  assertMatch(problems(queryElements, { selector: "a", limit: 101 }), /limit/);
  assertMatch(problems(waitForElement, { selector: "a", timeoutMs: 25_001 }), /timeoutMs/);
  assertMatch(problems(waitForElement, { selector: "a", state: "hidden" }), /state/);
  for (const tool of [queryElements, clickElement, typeText, hoverElement, waitForElement]) {
    assertMatch(problems(tool, { selector: "", text: "x" }), /selector/);
  }
  assertMatch(problems(typeText, { selector: "#q" }), /text/);
});

Deno.test("browser_select_option takes exactly one of value, label or index", () => {
  assertEquals(parsed(selectOption, { selector: "s", value: "" }), { selector: "s", value: "" });
  assertEquals(parsed(selectOption, { selector: "s", label: "Red" }).label, "Red");
  assertEquals(parsed(selectOption, { selector: "s", index: 0 }).index, 0);
  for (
    const args of [
      { selector: "s" },
      { selector: "s", value: "r", label: "Red" },
      { selector: "s", value: "r", index: 1 },
    ]
  ) {
    assertMatch(problems(selectOption, args), /exactly one of value, label or index/);
  }
  assertMatch(problems(selectOption, { selector: "s", index: -1 }), /index/);
});

Deno.test("browser_scroll takes x/y or to, each with or without a selector (or none: position)", () => {
  assertEquals(parsed(scroll, {}), {});
  assertEquals(parsed(scroll, { x: 10, y: -20 }), { x: 10, y: -20 });
  assertEquals(parsed(scroll, { to: "bottom" }), { to: "bottom" });
  assertEquals(parsed(scroll, { selector: "#end" }), { selector: "#end" });
  assertEquals(parsed(scroll, { selector: "#a", y: 10 }), { selector: "#a", y: 10 });
  assertEquals(parsed(scroll, { selector: "#a", to: "top" }), { selector: "#a", to: "top" });
  for (const args of [{ to: "top", x: 0 }, { selector: "#a", to: "top", y: 1 }]) {
    assertMatch(problems(scroll, args), /x\/y or to, not both/);
  }
  assertMatch(problems(scroll, { to: "middle" }), /to/);
});

Deno.test("browser_press_key takes a key and known modifiers", () => {
  assertEquals(parsed(pressKey, { key: "a", modifiers: ["Shift", "Control"] }), {
    key: "a",
    modifiers: ["Shift", "Control"],
    waitForLoad: true,
  });
  assertMatch(problems(pressKey, { key: "" }), /key/);
  assertMatch(problems(pressKey, { key: "a", modifiers: ["Hyper"] }), /modifiers/);
});
