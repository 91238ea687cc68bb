import { assertEquals } from "../../tests/helpers/assert.ts";
import { touch } from "./lru.ts";

Deno.test("touch makes a missing value, keeps a present one and drops the least recently used", () => {
  const map = new Map<string, number>();
  let made = 0;
  const make = () => ++made;
  assertEquals([touch(map, "a", make, 2), touch(map, "b", make, 2)], [1, 2]);
  assertEquals(touch(map, "a", make, 2), 1, "a present value is kept");
  assertEquals(touch(map, "c", make, 2), 3);
  assertEquals([...map.keys()], ["a", "c"], "b was used least recently");
});
