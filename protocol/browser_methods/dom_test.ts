/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { DOM_METHODS, scrollMoves } from "./dom.ts";
import { SELECTOR_MAX_CHARS } from "./dom_limits.ts";
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

Deno.test("every selector and frame input is bounded to SELECTOR_MAX_CHARS characters", () => {
  const long = "a".repeat(SELECTOR_MAX_CHARS);
  let checked = 0;
  for (const [name, spec] of Object.entries(DOM_METHODS)) {
    for (const field of ["selector", "frame"]) {
      if (!(field in spec.input.shape)) continue;
      checked++;
      // Other required fields may be missing: only the issues about this field count.
      const fails = (value: string) =>
        spec.input.safeParse({ [field]: value }).error?.issues.some((i) => i.path[0] === field) ??
          false;
      assertEquals(fails(long), false, `${name} ${field} at the limit`);
      assertEquals(fails(`${long}a`), true, `${name} ${field} over the limit`);
    }
  }
  assertEquals(checked > 10, true, `${checked} fields checked`);
});
