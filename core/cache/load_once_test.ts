import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { loadOnce } from "./load_once.ts";

Deno.test("loadOnce loads once, and again only after a failed load", async () => {
  let calls = 0;
  let fail = true;
  const load = loadOnce(() => {
    calls++;
    return fail ? Promise.reject(new Error("not yet")) : Promise.resolve(calls);
  });
  await assertRejects(load, Error, "not yet");
  fail = false;
  assertEquals(await load(), 2);
  assertEquals(await load(), 2);
  assertEquals(calls, 2);
});
