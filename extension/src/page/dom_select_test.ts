/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { listOptions, pickOption } from "./dom_select.ts";

const OPTIONS = [
  { value: "", label: "Pick one" },
  { value: "r", label: "Red" },
  { value: "g", label: "Green" },
  { value: "red", label: "Dark red" },
];

Deno.test("pickOption finds an option by value, exactly", () => {
  assertEquals(pickOption(OPTIONS, { value: "r" }), 1);
  assertEquals(pickOption(OPTIONS, { value: "red" }), 3);
  assertEquals(pickOption(OPTIONS, { value: "" }), 0);
  assertEquals(pickOption(OPTIONS, { value: "R" }), -1);
  assertEquals(pickOption(OPTIONS, { value: "Red" }), -1, "a label is not a value");
});

Deno.test("pickOption finds by label, exact first, then ignoring case and spaces", () => {
  assertEquals(pickOption(OPTIONS, { label: "Green" }), 2);
  assertEquals(pickOption(OPTIONS, { label: " green " }), 2);
  assertEquals(pickOption(OPTIONS, { label: "DARK RED" }), 3);
  assertEquals(pickOption(OPTIONS, { label: "Gre" }), -1, "no substring matches");
  const both = [{ value: "1", label: "red" }, { value: "2", label: "Red" }];
  assertEquals(pickOption(both, { label: "Red" }), 1, "the exact label wins");
});

Deno.test("pickOption takes an index in range", () => {
  assertEquals(pickOption(OPTIONS, { index: 0 }), 0);
  assertEquals(pickOption(OPTIONS, { index: 3 }), 3);
  assertEquals(pickOption(OPTIONS, { index: 4 }), -1);
  assertEquals(pickOption(OPTIONS, { index: -1 }), -1);
  assertEquals(pickOption(OPTIONS, { index: 1.5 }), -1);
  assertEquals(pickOption(OPTIONS, {}), -1);
});

Deno.test("listOptions lists index, label and value, capped", () => {
  assertEquals(
    listOptions(OPTIONS.slice(0, 2)),
    '0: "Pick one" (value ""), 1: "Red" (value "r")',
  );
  assertEquals(listOptions([]), "it has no options");
  const many = Array.from({ length: 40 }, (_, i) => ({ value: `v${i}`, label: `Option ${i}` }));
  const listed = listOptions(many);
  assertMatch(listed, /24: "Option 24" \(value "v24"\), and 15 more$/);
  assertEquals(listed.includes("Option 25"), false);
});
