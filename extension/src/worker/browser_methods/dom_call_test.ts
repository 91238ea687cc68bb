/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { failureOf, fakeMethodContext, withChrome } from "../_test_fixtures.ts";
import { createDomKit } from "../../page/dom_kit.ts";
import { fail } from "../../page/dom_find.ts";
import { DOM_KIT_FILE, DOM_KIT_GLOBAL } from "../../page/dom_kit_types.ts";
import { parsedInput } from "./_parsed_input.ts";
import { domCall } from "./dom_call.ts";
import { pageText } from "./page_text.ts";
import { domSelect } from "./dom_select.ts";

const context = fakeMethodContext();
const TAB = { id: 7, url: "http://127.0.0.1/form", windowId: 1 };

interface Injection {
  target: { tabId: number };
  files?: string[];
  func?: (...args: unknown[]) => unknown;
  args?: unknown[];
}

/**
 * A fake chrome whose executeScript runs `func` for real in this isolated "page" (Deno's
 * globalThis), and whose file injection installs a kit with `ops`. Records every injection.
 */
function fakeChrome(ops: Parameters<typeof createDomKit>[0], installs = true) {
  const injections: Injection[] = [];
  const chrome = {
    tabs: {
      get: (id: number) =>
        id === TAB.id ? Promise.resolve(TAB) : Promise.reject(new Error(`No tab with id: ${id}.`)),
      query: () => Promise.resolve([TAB]),
    },
    scripting: {
      async executeScript(injection: Injection) {
        injections.push(injection);
        if (injection.files) {
          if (installs) Reflect.set(globalThis, DOM_KIT_GLOBAL, createDomKit(ops));
          return [{ frameId: 0, result: undefined }];
        }
        // Arguments cross as JSON, as they do in Chromium.
        const args = JSON.parse(JSON.stringify(injection.args));
        return [{ frameId: 0, result: await injection.func!(...args) }];
      },
    },
  };
  return { chrome, injections };
}

async function inPage(body: () => Promise<void>) {
  try {
    await body();
  } finally {
    Reflect.deleteProperty(globalThis, DOM_KIT_GLOBAL);
  }
}

Deno.test("domCall injects the kit on first use, then reuses it", () =>
  inPage(async () => {
    const { chrome, injections } = fakeChrome({ "page.text": (args) => ({ got: args }) });
    await withChrome(chrome, async () => {
      const first = await pageText(
        parsedInput("page.text", { tabId: 7, selector: "main", maxLength: 50 }),
        context,
      );
      assertEquals(first, {
        tabId: 7,
        got: { selector: "main", maxLength: 50, includeHidden: false },
      });
      assertEquals(injections.map((i) => i.files ?? "func"), ["func", [DOM_KIT_FILE], "func"]);
      assertEquals(injections[1].target, { tabId: 7 });
      // Without a tabId: the active tab. Undefined fields are dropped, not sent.
      const second = await pageText(parsedInput("page.text", { maxLength: 10 }), context);
      assertEquals(second, { tabId: 7, got: { maxLength: 10, includeHidden: false } });
      assertEquals(injections.length, 4, "no second injection of the file");
    });
  }));

Deno.test("domCall replaces a kit of another version", () =>
  inPage(async () => {
    Reflect.set(globalThis, DOM_KIT_GLOBAL, {
      version: "old",
      run: () => Promise.resolve({ ok: true, value: { stale: true } }),
    });
    const { chrome, injections } = fakeChrome({ "page.text": () => ({ fresh: true }) });
    await withChrome(chrome, async () => {
      assertEquals(await pageText(parsedInput("page.text", { tabId: 7 }), context), {
        tabId: 7,
        fresh: true,
      });
      assertEquals(injections.filter((i) => i.files).length, 1);
    });
  }));

Deno.test("a failure the kit reports is the tool's error, with its category", () =>
  inPage(async () => {
    const { chrome } = fakeChrome({
      "dom.select": () => {
        throw fail("OPTION_NOT_FOUND", 'No option with value "x". Its options: 0: "Red"');
      },
      "dom.wait": () => {
        throw fail("WAIT_TIMEOUT", "not visible within 10 ms");
      },
      odd: () => {
        throw fail("SOMETHING_NEW" as "PAGE_ERROR", "odd"); // a code this extension does not know
      },
    });
    await withChrome(chrome, async () => {
      const option = await failureOf(
        domSelect(parsedInput("dom.select", { tabId: 7, selector: "#c", value: "x" }), context),
      );
      assertEquals(option.payload.code, "OPTION_NOT_FOUND");
      assertEquals(option.payload.category, "not_found");
      assertEquals(option.payload.retryable, false);
      assertMatch(option.payload.message, /Its options: 0: "Red"/);
      const wait = parsedInput("dom.wait", { tabId: 7, selector: "#late" });
      const timeout = await failureOf(domCall("dom.wait", wait, context, "t"));
      assertEquals([timeout.payload.code, timeout.payload.category], ["WAIT_TIMEOUT", "timeout"]);
      const odd = await failureOf(domCall("odd" as "dom.wait", wait, context, "t"));
      assertEquals([odd.payload.code, odd.payload.category], ["SOMETHING_NEW", "internal"]);
    });
  }));

Deno.test("a kit that will not install is EXTENSION_ERROR; a closed tab is TAB_NOT_FOUND", () =>
  inPage(async () => {
    const { chrome } = fakeChrome({}, false);
    await withChrome(chrome, async () => {
      const missing = await failureOf(pageText(parsedInput("page.text", { tabId: 7 }), context));
      assertEquals(missing.payload.code, "EXTENSION_ERROR");
      assertMatch(missing.payload.message, /dom_kit\.js/);
      const gone = await failureOf(pageText(parsedInput("page.text", { tabId: 99 }), context));
      assertEquals(gone.payload.code, "TAB_NOT_FOUND");
    });
  }));

Deno.test("domCall with onNavigation: the page tells whether the action may have navigated", () =>
  inPage(async () => {
    const navigation = new EventTarget();
    // The page's own submit handler cancels the form with id "cancelled".
    const cancel = (event: Event) => submitted === "#cancelled" && event.preventDefault();
    let submitted = "";
    const { chrome } = fakeChrome({
      "dom.click": ({ selector }: { selector: string }) => {
        if (selector === "#link") navigation.dispatchEvent(new Event("navigate"));
        if (selector === "#form" || selector === "#cancelled") {
          submitted = selector;
          dispatchEvent(new Event("submit", { cancelable: true }));
        }
        return { clicked: true };
      },
    });
    addEventListener("submit", cancel);
    const saw = async (selector: string) => {
      let seen: string | undefined;
      const input = parsedInput("dom.click", { tabId: 7, selector });
      await domCall("dom.click", input, context, "t", (page) => (seen = page));
      return seen;
    };
    try {
      await withChrome(chrome, async () => {
        // Without the Navigation API the page cannot tell: nothing is reported.
        assertEquals(await saw("#link"), undefined);
        Reflect.set(globalThis, "navigation", navigation);
        assertEquals(await saw("#link"), "possible");
        assertEquals(await saw("#form"), "possible");
        assertEquals(await saw("#cancelled"), "none");
        assertEquals(await saw("#stay"), "none");
      });
    } finally {
      removeEventListener("submit", cancel);
      Reflect.deleteProperty(globalThis, "navigation");
    }
  }));
