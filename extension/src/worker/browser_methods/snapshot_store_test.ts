/// <reference lib="deno.ns" />
import { assertEquals, assertThrows } from "../../../../tests/helpers/assert.ts";
import { HubError } from "../../../../protocol/errors.ts";
import { createSnapshotStore } from "./snapshot_store.ts";

Deno.test("snapshot store keeps the last few per tab and names them s<n>", () => {
  const store = createSnapshotStore(1, 2);
  assertEquals(store.keep(7, "D1", "one"), "s1");
  assertEquals(store.keep(8, "D9", "other tab"), "s2");
  assertEquals(store.keep(7, "D1", "two"), "s3");
  assertEquals(store.keep(7, "D1", "three"), "s4");
  assertEquals(store.textOf(7, "s3", "D1"), "two");
  assertEquals(store.textOf(7, "s4", "D1"), "three");
  assertEquals(store.textOf(8, "s2", "D9"), "other tab");
  const stale = (tab: number, id: string, doc: string) => {
    assertThrows(() => store.textOf(tab, id, doc), HubError, "without since");
    try {
      store.textOf(tab, id, doc);
    } catch (error) {
      assertEquals((error as HubError).payload.code, "REF_STALE");
    }
  };
  stale(7, "s1", "D1"); // dropped: only 2 kept
  stale(7, "s2", "D1"); // another tab's
  stale(7, "s4", "D2"); // another top document
  stale(7, "nope", "D1");
  store.forgetTab(7);
  stale(7, "s4", "D1");
});
