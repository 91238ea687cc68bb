/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { namedFromContent } from "./dom_name_roles.ts";
import { collapse } from "./dom_names.ts";

Deno.test("namedFromContent lists the roles named by their text", () => {
  for (const role of ["button", "link", "heading", "cell", "option", "tab", "treeitem"]) {
    assertEquals(namedFromContent(role), true, role);
  }
  for (const role of ["textbox", "list", "navigation", "region", "dialog", "img", "generic"]) {
    assertEquals(namedFromContent(role), false, role);
  }
});

Deno.test("collapse folds whitespace and trims", () => {
  assertEquals(collapse("  a \n\t b  "), "a b");
});
