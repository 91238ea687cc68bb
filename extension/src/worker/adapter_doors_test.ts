/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { withChrome } from "./_test_fixtures.ts";
import { createAdapterDoors, type DoorRecord } from "./adapter_doors.ts";

/** A fake `chrome.storage.session` over `data`. */
function sessionStorage(data: Record<string, unknown>) {
  return {
    storage: {
      session: {
        get: (key: string) => Promise.resolve(key in data ? { [key]: data[key] } : {}),
        set: (items: Record<string, unknown>) => Promise.resolve(void Object.assign(data, items)),
      },
    },
  };
}

const door = (key: string): DoorRecord => ({ documentId: "d", hash: "h", key, secret: "s" });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("doors outlive the service worker: a new store reads what the last one kept", async () => {
  const data: Record<string, unknown> = {};
  await withChrome(sessionStorage(data), async () => {
    const first = createAdapterDoors();
    first.set(4, "app", door("k1"));
    first.set(4, "other", door("k2"));
    first.set(5, "app", door("k3"));
    await settle();
    const restarted = createAdapterDoors();
    assertEquals(await restarted.get(4, "app"), door("k1"));
    restarted.delete(4, "other");
    restarted.forgetTab(5);
    await settle();
    const again = createAdapterDoors();
    assertEquals(await again.get(4, "app"), door("k1"));
    assertEquals(await again.get(4, "other"), undefined);
    assertEquals(await again.get(5, "app"), undefined);
  });
});

Deno.test("a door set before the stored ones are read is not lost", async () => {
  const data: Record<string, unknown> = { adapterDoors: { "4\napp": door("old") } };
  await withChrome(sessionStorage(data), async () => {
    const doors = createAdapterDoors();
    doors.set(4, "app", door("new"));
    assertEquals(await doors.get(4, "app"), door("new"));
    await settle();
    assertEquals((data.adapterDoors as Record<string, DoorRecord>)["4\napp"].key, "new");
  });
});

Deno.test("a new main-frame document drops the tab's doors of other documents at once", async () => {
  const data: Record<string, unknown> = {};
  const inDoc = (key: string, documentId: string): DoorRecord => ({ ...door(key), documentId });
  await withChrome(sessionStorage(data), async () => {
    const doors = createAdapterDoors();
    doors.set(4, "app", inDoc("k1", "old"));
    doors.set(4, "other", inDoc("k2", "new")); // already injected into the new document
    doors.set(5, "app", inDoc("k3", "old"));
    await doors.get(4, "app");
    doors.forgetTab(4, "new");
    assertEquals(await doors.get(4, "app"), undefined);
    assertEquals(await doors.get(4, "other"), inDoc("k2", "new"));
    assertEquals(await doors.get(5, "app"), inDoc("k3", "old"));
    await settle();
    const restarted = createAdapterDoors();
    assertEquals(await restarted.get(4, "app"), undefined);
    assertEquals(await restarted.get(4, "other"), inDoc("k2", "new"));
  });
});
