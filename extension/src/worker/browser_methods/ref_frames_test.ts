/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { FRAME_DOCS_PER_TAB } from "../../../../protocol/browser_methods/dom_limits.ts";
import { fakeStorageArea } from "../_test_fixtures.ts";
import { createRefFrames, type TableStorage } from "./ref_frames.ts";

Deno.test("the top document is k 0; each frame document gets its own k, numbered from 1", async () => {
  const { storage } = fakeStorageArea();
  const frames = createRefFrames(() => storage);
  assertEquals(await frames.schemeFor(7, 0, "TOP-1"), { k: 0, scheme: { prefix: "", base: 1 } });
  assertEquals(await frames.schemeFor(7, 3, "PAY-1"), { k: 1, scheme: { prefix: "f1", base: 1 } });
  assertEquals(await frames.schemeFor(7, 4, "FORM-1"), { k: 2, scheme: { prefix: "f2", base: 1 } });
  // the same document again: the same k
  assertEquals((await frames.schemeFor(7, 3, "PAY-1")).k, 1);
  assertEquals((await frames.schemeFor(7, 0, "TOP-1")).k, 0);
  // a frame that navigated: a new document, a new k (never reused)
  assertEquals(await frames.schemeFor(7, 3, "PAY-2"), { k: 3, scheme: { prefix: "f3", base: 1 } });
  assertEquals((await frames.docOf(7, 1))?.documentId, "PAY-1");
  assertEquals(await frames.docOf(7, 9), undefined);
  // another tab has its own table
  assertEquals((await frames.schemeFor(8, 5, "OTHER")).k, 1);
});

Deno.test("a new top document takes k 0 and numbers its refs above the old one's", async () => {
  const { storage } = fakeStorageArea();
  const frames = createRefFrames(() => storage);
  await frames.schemeFor(7, 0, "TOP-1");
  await frames.recordDoc(7, 0, { token: "t1", upTo: 12 });
  assertEquals(await frames.docOf(7, 0), {
    k: 0,
    frameId: 0,
    documentId: "TOP-1",
    token: "t1",
    base: 1,
    upTo: 12,
  });
  // upTo never goes down
  await frames.recordDoc(7, 0, { token: "t1", upTo: 3 });
  assertEquals((await frames.docOf(7, 0))?.upTo, 12);
  assertEquals(await frames.schemeFor(7, 0, "TOP-2"), { k: 0, scheme: { prefix: "", base: 13 } });
  const top = await frames.docOf(7, 0);
  assertEquals([top?.documentId, top?.token, top?.upTo], ["TOP-2", undefined, 12]);
  // a page that handed out no refs passes its base on unchanged
  assertEquals((await frames.schemeFor(7, 0, "TOP-3")).scheme.base, 13);
  // an answer from the old top document does not touch the new one's entry
  await frames.recordDoc(7, 0, { token: "t2", upTo: 40 }, "TOP-2");
  assertEquals((await frames.docOf(7, 0))?.upTo, 12);
  await frames.recordDoc(7, 0, { token: "t3", upTo: 14 }, "TOP-3");
  assertEquals((await frames.docOf(7, 0))?.token, "t3");
});

Deno.test("a snapshot straddling a navigation: no later top document reuses the old one's numbers (R2#15)", async () => {
  const { storage } = fakeStorageArea();
  const frames = createRefFrames(() => storage);
  // A snapshot reads top document A (base 1) …
  assertEquals((await frames.schemeFor(7, 0, "A")).scheme.base, 1);
  // … the tab navigates and a call takes k = 0 for B before A's answer (e1…e40) is recorded.
  assertEquals((await frames.schemeFor(7, 0, "B")).scheme.base, 1);
  // A's late answer: not current any more (the snapshot drops it), but it raises the floor.
  assertEquals(await frames.recordDoc(7, 0, { token: "tA", upTo: 40 }, "A"), false);
  assertEquals((await frames.docOf(7, 0))?.documentId, "B");
  await frames.recordDoc(7, 0, { token: "tB", upTo: 5 }, "B");
  // The next top document numbers above every number a top document handed out: 41, not 6.
  assertEquals(await frames.schemeFor(7, 0, "C"), { k: 0, scheme: { prefix: "", base: 41 } });
  assertEquals(await frames.recordDoc(7, 0, { token: "tC", upTo: 41 }, "C"), true);
  // The floor survives a restarted worker.
  const after = createRefFrames(() => storage);
  assertEquals((await after.schemeFor(7, 0, "D")).scheme.base, 42);
});

Deno.test("the table survives a restarted worker and goes with its tab", async () => {
  const session = fakeStorageArea();
  const before = createRefFrames(() => session.storage);
  await before.schemeFor(7, 0, "TOP-1");
  await before.schemeFor(7, 2, "FRAME-1");
  await before.recordDoc(7, 1, { token: "tf", upTo: 4 });
  await before.setOwner(7, 1, "e3");
  // a new worker: nothing in memory
  const after = createRefFrames(() => session.storage);
  assertEquals(await after.docOf(7, 1), {
    k: 1,
    frameId: 2,
    documentId: "FRAME-1",
    token: "tf",
    base: 1,
    upTo: 4,
    owner: "e3",
  });
  assertEquals((await after.schemeFor(7, 2, "FRAME-2")).k, 2, "k goes on where it was");
  await after.forgetTab(7);
  assertEquals(session.data.has("refFrames:7"), false);
  assertEquals(await after.docOf(7, 1), undefined);
  assertEquals((await after.schemeFor(7, 2, "FRAME-3")).k, 1, "a closed tab's table is gone");
});

Deno.test("a table holds at most FRAME_DOCS_PER_TAB documents; the oldest frames go", async () => {
  const { storage } = fakeStorageArea();
  const frames = createRefFrames(() => storage);
  await frames.schemeFor(7, 0, "TOP");
  for (let i = 1; i <= FRAME_DOCS_PER_TAB + 2; i++) await frames.schemeFor(7, 1, `F${i}`);
  assertEquals(await frames.docOf(7, 1), undefined);
  assertEquals(await frames.docOf(7, 2), undefined);
  assertEquals(await frames.docOf(7, 3), undefined);
  assertEquals((await frames.docOf(7, 4))?.documentId, "F4");
  assertEquals((await frames.docOf(7, 0))?.documentId, "TOP", "the top document stays");
  assertEquals(
    (await frames.docOf(7, FRAME_DOCS_PER_TAB + 2))?.documentId,
    `F${FRAME_DOCS_PER_TAB + 2}`,
  );
});

Deno.test("changes to one tab's table run one after another; unchanged entries are not written", async () => {
  const session = fakeStorageArea();
  const frames = createRefFrames(() => session.storage);
  // all at once: every frame document still gets its own k
  const ks = await Promise.all(
    Array.from({ length: 20 }, (_, i) => frames.schemeFor(7, i + 1, `D${i}`)),
  );
  assertEquals(ks.map((s) => s.k), Array.from({ length: 20 }, (_, i) => i + 1));
  const stored = session.data.get("refFrames:7") as { entries: unknown[] };
  assertEquals(stored.entries.length, 20);
  const writes = session.writes();
  await frames.schemeFor(7, 1, "D0");
  await frames.recordDoc(7, 1, { token: "t", upTo: 0 });
  await frames.recordDoc(7, 1, { token: "t", upTo: 0 });
  assertEquals(session.writes(), writes + 1, "only the token's first record was written");
});

Deno.test("a storage that fails does not fail the table", async () => {
  const failing: TableStorage = {
    get: (() => Promise.reject(new Error("no storage"))) as TableStorage["get"],
    set: (() => Promise.reject(new Error("no storage"))) as TableStorage["set"],
    remove: (() => Promise.reject(new Error("no storage"))) as TableStorage["remove"],
  };
  const warn = console.warn;
  console.warn = () => {};
  try {
    const frames = createRefFrames(() => failing);
    assertEquals((await frames.schemeFor(7, 0, "TOP")).k, 0);
    await frames.recordDoc(7, 0, { token: "t", upTo: 2 });
    assertEquals((await frames.docOf(7, 0))?.upTo, 2);
    await frames.forgetTab(7);
  } finally {
    console.warn = warn;
  }
});
