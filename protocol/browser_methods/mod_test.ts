/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import {
  BROWSER_METHOD_NAMES,
  type BrowserInput,
  isBrowserMethodName,
  parseBrowserInput,
} from "./mod.ts";
import { TAB_METHODS } from "./tabs.ts";
import { DOM_METHODS } from "./dom.ts";
import { PAGE_METHODS } from "./page.ts";
import { EXTENSION_METHODS } from "./extension.ts";
import { INPUT_METHODS } from "./input.ts";
import { DIALOG_METHODS } from "./dialogs.ts";
import { NETWORK_METHODS } from "./network.ts";
import { DOWNLOAD_METHODS } from "./downloads.ts";
import { FILE_METHODS } from "./files.ts";

Deno.test("the areas declare 37 methods and no name twice", () => {
  const areas = [
    TAB_METHODS,
    DOM_METHODS,
    PAGE_METHODS,
    EXTENSION_METHODS,
    INPUT_METHODS,
    DIALOG_METHODS,
    NETWORK_METHODS,
    DOWNLOAD_METHODS,
    FILE_METHODS,
  ];
  const count = areas.reduce((n: number, area: object) => n + Object.keys(area).length, 0);
  assertEquals(count, BROWSER_METHOD_NAMES.length);
  assertEquals(BROWSER_METHOD_NAMES.length, 37);
  for (const name of BROWSER_METHOD_NAMES) {
    assertMatch(name, /^[a-z]+\.[a-z][a-zA-Z]*$/);
    assert(isBrowserMethodName(name));
  }
  for (const odd of ["tabs.lst", "toString", "__proto__", 1, undefined]) {
    assertEquals(isBrowserMethodName(odd), false, String(odd));
  }
});

Deno.test("parseBrowserInput applies defaults and keeps limits", () => {
  const parsed = parseBrowserInput("page.console", { tabId: 3 });
  assertEquals(parsed, {
    ok: true,
    input: { tabId: 3, level: "debug", limit: 100, clear: false },
  });
  assert(parsed.ok);
  // The parsed type has the defaulted fields as required.
  const input: BrowserInput<"page.console"> = parsed.input;
  const limit: number = input.limit;
  assertEquals(limit, 100);
  assertEquals(parseBrowserInput("page.text", {}), {
    ok: true,
    input: { maxLength: 20_000, includeHidden: false },
  });
  assertEquals(parseBrowserInput("page.console", { limit: 1001 }).ok, false);
});

Deno.test("parseBrowserInput reports at most three short problems", () => {
  const failed = parseBrowserInput("tabs.screenshot", {
    tabId: "x".repeat(10_000),
    maxBytes: 1,
    save: "yes",
  });
  assert(!failed.ok);
  assertEquals(failed.problems.length, 3);
  assertMatch(failed.problems.join("\n"), /^tabId: .*\nmaxBytes: .*\nsave: /);
  const many = parseBrowserInput("dom.type", {
    selector: "",
    text: 1,
    tabId: 0,
    clear: "no",
    submit: "no",
  });
  assert(!many.ok);
  assertEquals(many.problems.length, 4);
  assertEquals(many.problems[3], "and 2 more");
  for (const line of many.problems) assert(line.length <= 200, line);
  assertEquals(parseBrowserInput("tabs.list", "not an object").ok, false);
});
