import { assertEquals } from "../../../tests/helpers/assert.ts";
import { withChrome } from "./_test_fixtures.ts";
import { baseName, createDownloads, entry } from "./downloads.ts";

type Item = chrome.downloads.DownloadItem;
type Listener = (value: unknown) => void;

/** A fake chrome.downloads: `items` as Chromium keeps them; `start`/`update` fire its events. */
function fakeDownloads() {
  const items: Item[] = [];
  const created = new Set<Listener>();
  const changed = new Set<Listener>();
  const api = {
    onCreated: { addListener: (l: Listener) => created.add(l) },
    onChanged: { addListener: (l: Listener) => changed.add(l) },
    search(query: chrome.downloads.DownloadQuery) {
      let found = items.filter((item) =>
        (query.id === undefined || item.id === query.id) &&
        (query.state === undefined || item.state === query.state) &&
        (query.startedAfter === undefined || item.startTime > query.startedAfter)
      );
      const newest = query.orderBy?.[0] === "-startTime";
      found = found.sort((a, b) => a.startTime.localeCompare(b.startTime) * (newest ? -1 : 1));
      return Promise.resolve(found.slice(0, query.limit ?? found.length).map((i) => ({ ...i })));
    },
  };
  return {
    api,
    start(fields: Partial<Item>): Item {
      const item = {
        id: items.length + 1,
        url: "http://127.0.0.1/file.txt",
        filename: "",
        bytesReceived: 0,
        totalBytes: 15,
        state: "in_progress",
        startTime: new Date().toISOString(),
        ...fields,
      } as Item;
      items.push(item);
      for (const l of created) l({ ...item });
      return item;
    },
    update(id: number, fields: Partial<Item>) {
      Object.assign(items.find((i) => i.id === id)!, fields);
      for (const l of changed) l({ id });
    },
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("createdSince reports a download that starts while it waits, once it is named and done", async () => {
  const fake = fakeDownloads();
  await withChrome({ downloads: fake.api }, async () => {
    const downloads = createDownloads();
    downloads.listen();
    const since = Date.now() - 5;
    const report = downloads.createdSince(since, 2000, 7);
    await tick(20);
    const item = fake.start({});
    await tick(20);
    fake.update(item.id, { filename: "/home/me/Downloads/report.txt" });
    await tick(20);
    fake.update(item.id, { state: "complete", bytesReceived: 15 });
    assertEquals(await report, {
      filename: "report.txt",
      url: "http://127.0.0.1/file.txt",
      state: "complete",
      bytes: 15,
    });
    const [listed] = await downloads.list({ limit: 5 });
    assertEquals(listed.tabId, 7);
    assertEquals(listed.path, "/home/me/Downloads/report.txt");
  });
});

Deno.test("createdSince answers undefined when no download starts in time, and skips older ones", async () => {
  const fake = fakeDownloads();
  await withChrome({ downloads: fake.api }, async () => {
    const downloads = createDownloads();
    downloads.listen();
    fake.start({ startTime: new Date(Date.now() - 60_000).toISOString() });
    assertEquals(await downloads.createdSince(Date.now(), 50), undefined);
  });
});

Deno.test("createdSince reports what it knows when the download does not settle (a Save-as dialog)", async () => {
  const fake = fakeDownloads();
  await withChrome({ downloads: fake.api }, async () => {
    const downloads = createDownloads();
    downloads.listen();
    const since = Date.now() - 5;
    fake.start({ url: "http://127.0.0.1/big.bin", bytesReceived: 3 });
    const report = await downloads.createdSince(since, 0);
    assertEquals(report, {
      filename: "",
      url: "http://127.0.0.1/big.bin",
      state: "in_progress",
      bytes: 3,
    });
  });
});

Deno.test("list answers newest first, filters by state, and has no tabId hub did not see", async () => {
  const fake = fakeDownloads();
  await withChrome({ downloads: fake.api }, async () => {
    const downloads = createDownloads();
    const t0 = Date.now() - 10_000;
    fake.start({ startTime: new Date(t0).toISOString(), state: "complete", filename: "/d/a.txt" });
    fake.start({
      startTime: new Date(t0 + 1000).toISOString(),
      state: "interrupted",
      error: "NETWORK_FAILED",
      filename: "/d/b.txt",
      totalBytes: -1,
    } as Partial<Item>);
    const all = await downloads.list({ limit: 10 });
    assertEquals(all.map((d) => d.filename), ["b.txt", "a.txt"]);
    assertEquals(all[0].error, "NETWORK_FAILED");
    assertEquals(all[0].totalBytes, null);
    assertEquals("tabId" in all[0], false);
    const done = await downloads.list({ state: "complete", limit: 10 });
    assertEquals(done.map((d) => d.id), [1]);
    assertEquals((await downloads.list({ limit: 1 })).length, 1);
  });
});

Deno.test("entry cuts a long URL and keeps no error for a download that was not interrupted", () => {
  const item = {
    id: 3,
    url: `data:text/plain,${"x".repeat(5000)}`,
    filename: "C:\\Users\\me\\Downloads\\x.txt",
    bytesReceived: 5000,
    totalBytes: 5000,
    state: "complete",
    startTime: "2026-01-01T00:00:00.000Z",
  } as Item;
  const described = entry(item);
  assertEquals(described.url.length, 2048);
  assertEquals(described.filename, "x.txt");
  assertEquals("error" in described, false);
  assertEquals(baseName("/a/b/c.pdf"), "c.pdf");
});
