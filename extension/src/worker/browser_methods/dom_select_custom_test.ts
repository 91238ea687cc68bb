/// <reference lib="deno.ns" />
/**
 * browser_select_option on a custom control (dom_select.ts customSelect): its trusted clicks find
 * their point as the other pointer tools do, so a tab that is not shown is TAB_HIDDEN (not "shows
 * nothing to click") and an element that shows nothing is ELEMENT_NOT_FOUND naming it.
 */
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { failureOf, fakeMethodContext, withChrome } from "../_test_fixtures.ts";
import { createDomKit } from "../../page/dom_kit.ts";
import { fail } from "../../page/dom_find.ts";
import { DOM_KIT_GLOBAL } from "../../page/dom_kit_types.ts";
import type { MethodContext } from "./browser_method.ts";
import { parsedInput } from "./_parsed_input.ts";
import { domSelect } from "./dom_select.ts";

const TAB = { id: 7, url: "http://127.0.0.1/select", windowId: 1 };
const BOX = { x: 10, y: 10, width: 100, height: 20 };

interface Injection {
  files?: string[];
  func?: (...args: unknown[]) => unknown;
  args?: unknown[];
}

/** A tab whose kit has a custom control (not a `<select>`) and whose page is `hidden` or not. */
function fakeChrome(point: Record<string, unknown>) {
  const ops = {
    "dom.select": () => {
      throw fail("NOT_A_SELECT", "#combo is not a <select>");
    },
    "dom.option": () => ({ found: false }),
    "dom.point": () => ({ box: BOX, frameIndex: -1, info: { tag: "div" }, ...point }),
  };
  return {
    tabs: {
      get: () => Promise.resolve(TAB),
      query: () => Promise.resolve([TAB]),
    },
    scripting: {
      async executeScript(injection: Injection) {
        if (injection.files) {
          Reflect.set(globalThis, DOM_KIT_GLOBAL, createDomKit(ops as never));
          return [{ frameId: 0, result: undefined }];
        }
        const args = JSON.parse(JSON.stringify(injection.args));
        return [{ frameId: 0, result: await injection.func!(...args) }];
      },
    },
  };
}

async function selectFails(point: Record<string, unknown>) {
  const sessions = { session: () => Promise.resolve({}) } as unknown as MethodContext["sessions"];
  const context = fakeMethodContext({ sessions });
  const input = parsedInput("dom.select", { tabId: 7, selector: "#combo", label: "Red" });
  try {
    let error;
    await withChrome(fakeChrome(point), async () => {
      error = await failureOf(domSelect(input, context));
    });
    return error!;
  } finally {
    Reflect.deleteProperty(globalThis, DOM_KIT_GLOBAL);
  }
}

Deno.test("a custom control in a tab that is not shown is TAB_HIDDEN", async () => {
  const error = await selectFails({ visible: BOX, hidden: true });
  assertEquals(error.payload.code, "TAB_HIDDEN");
  assertMatch(error.message, /^Tab 7 is not shown.*browser_focus_tab/);
});

Deno.test("a custom control that shows nothing is ELEMENT_NOT_FOUND, naming it", async () => {
  const error = await selectFails({ visible: null });
  assertEquals(error.payload.code, "ELEMENT_NOT_FOUND");
  assertMatch(error.message, /^"#combo" is on the page but shows nothing a pointer can reach/);
});
