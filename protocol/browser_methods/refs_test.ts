/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { formatRef, frameRef, parseRef, refPrefix, staleRefMessage } from "./refs.ts";

Deno.test("parseRef reads element, frame element and frame refs", () => {
  assertEquals(parseRef("e12"), { frame: 0, element: 12 });
  assertEquals(parseRef("f1e3"), { frame: 1, element: 3 });
  assertEquals(parseRef("f7"), { frame: 7 });
});

Deno.test("parseRef refuses anything else", () => {
  for (
    const bad of ["", "e0", "f0e1", "f0", "E1", "e1 ", " e1", "f1e", "e", "f", "e01", "x1", "e1f1"]
  ) {
    assertEquals(parseRef(bad), undefined, bad);
  }
  assertEquals(parseRef("e" + "9".repeat(10)), undefined, "10 digits");
  assertEquals(parseRef("f" + "9".repeat(7) + "e1"), undefined, "7-digit frame");
});

Deno.test("formatRef and frameRef write what parseRef reads", () => {
  assertEquals(formatRef(0, 5), "e5");
  assertEquals(formatRef(3, 5), "f3e5");
  assertEquals(frameRef(3), "f3");
  assertEquals(refPrefix(0), "");
  assertEquals(parseRef(formatRef(12, 34)), { frame: 12, element: 34 });
});

Deno.test("staleRefMessage names the ref, clipped, and says to take a new snapshot", () => {
  assertEquals(staleRefMessage("e5").startsWith('Ref "e5" is stale'), true);
  assertEquals(staleRefMessage("x".repeat(100)).includes("x".repeat(18)), false);
  assertEquals(staleRefMessage("e5").includes("browser_snapshot"), true);
});
