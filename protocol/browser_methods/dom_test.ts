/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { scrollMoves } from "./dom.ts";
import { countSet } from "./fields.ts";

Deno.test("scrollMoves counts x/y (one movement) and to, not the selector", () => {
  assertEquals(scrollMoves({}), 0);
  assertEquals(scrollMoves({ x: 1, y: 2 }), 1);
  assertEquals(scrollMoves({ y: 0 }), 1);
  assertEquals(scrollMoves({ selector: "#a" }), 0);
  assertEquals(scrollMoves({ selector: "#a", y: 10 }), 1);
  assertEquals(scrollMoves({ selector: "#a", to: "top", x: 1 }), 2);
  assertEquals(countSet({ value: "", label: undefined, index: 0 }, ["value", "label", "index"]), 2);
});
