/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { scrollModes } from "./dom.ts";
import { countSet } from "./fields.ts";

Deno.test("scrollModes counts selector, x/y (one mode) and to", () => {
  assertEquals(scrollModes({}), 0);
  assertEquals(scrollModes({ x: 1, y: 2 }), 1);
  assertEquals(scrollModes({ y: 0 }), 1);
  assertEquals(scrollModes({ selector: "#a", to: "top", x: 1 }), 3);
  assertEquals(countSet({ value: "", label: undefined, index: 0 }, ["value", "label", "index"]), 2);
});
