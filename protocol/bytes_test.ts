import { assertEquals } from "../tests/helpers/assert.ts";
import { concatBytes } from "./bytes.ts";

Deno.test("concatBytes joins parts in order; one part is returned as it is; none is empty", () => {
  const a = new Uint8Array([1, 2]);
  assertEquals(
    concatBytes([a, new Uint8Array([]), new Uint8Array([3])]),
    new Uint8Array([1, 2, 3]),
  );
  assertEquals(concatBytes([a]) === a, true);
  assertEquals(concatBytes([]), new Uint8Array([]));
});
