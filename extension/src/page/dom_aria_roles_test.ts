/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { explicitRole } from "./dom_aria_roles.ts";

Deno.test("explicitRole takes the first known token", () => {
  assertEquals(explicitRole("button"), "button");
  assertEquals(explicitRole("  Switch checkbox "), "switch");
  assertEquals(explicitRole("fancy-widget link"), "link", "unknown tokens are skipped");
  assertEquals(explicitRole("widget landmark"), undefined, "abstract roles are not roles");
  assertEquals(explicitRole("image"), "img");
  assertEquals(explicitRole("presentation"), "none");
  assertEquals(explicitRole(""), undefined);
  assertEquals(explicitRole(null), undefined);
});
