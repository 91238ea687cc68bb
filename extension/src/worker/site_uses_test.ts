/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { fakeStorageArea } from "./_test_fixtures.ts";
import { createSiteUses, MAX_SITE_USES, SITE_USES_KEY } from "./site_uses.ts";

/**
 * A fake chrome.storage.local whose `written` settles when the site uses reach it, so a test waits
 * on the coalesced write itself, not on a guess of how long the timer takes.
 */
function watchedStorage() {
  const fake = fakeStorageArea();
  const written = Promise.withResolvers<void>();
  const storage = {
    ...fake.storage,
    set: (async (items: Record<string, unknown>) => {
      await fake.storage.set(items);
      if (SITE_USES_KEY in items) written.resolve();
    }) as typeof fake.storage.set,
  };
  return { ...fake, storage, written: written.promise };
}

Deno.test("a rule's last use is kept, written once for a stream of uses, and read back after a restart", async () => {
  const { storage, data, writes, written } = watchedStorage();
  let now = 1000;
  const uses = createSiteUses(storage, { clock: () => now, writeDelayMs: 0 });
  uses.record("example.com");
  now = 2000;
  uses.record("example.com");
  uses.record("*.test.org");
  assertEquals(await uses.all(), { "example.com": 2000, "*.test.org": 2000 });
  await written;
  assertEquals(writes(), 1);
  assertEquals(data.get(SITE_USES_KEY), { "example.com": 2000, "*.test.org": 2000 });
  const again = createSiteUses(storage);
  assertEquals(await again.all(), { "example.com": 2000, "*.test.org": 2000 });
});

Deno.test("at most MAX_SITE_USES patterns are kept: the oldest use goes; junk in storage is dropped", async () => {
  const { storage, data, written } = watchedStorage();
  data.set(SITE_USES_KEY, { "a.com": 5, "b.com": "yesterday", "c.com": null });
  let now = 10;
  const uses = createSiteUses(storage, { clock: () => now++, writeDelayMs: 0 });
  assertEquals(await uses.all(), { "a.com": 5 });
  for (let i = 0; i < MAX_SITE_USES; i++) uses.record(`h${i}.com`);
  await written;
  const all = await uses.all();
  assertEquals(Object.keys(all).length, MAX_SITE_USES);
  assertEquals(all["a.com"], undefined);
  assertEquals(all["h0.com"], 10);
});
