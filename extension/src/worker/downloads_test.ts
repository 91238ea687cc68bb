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
    // Tab 7's page is the download's origin: the download is its.
    const downloads = createDownloads({ tabUrls: () => Promise.resolve(["http://127.0.0.1/p"]) });
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

Deno.test("createdSince without waiting looks nothing up when no download was created since", async () => {
  const fake = fakeDownloads();
  let searches = 0;
  const search = fake.api.search;
  fake.api.search = (query) => (searches++, search(query));
  await withChrome({ downloads: fake.api }, async () => {
    const downloads = createDownloads();
    downloads.listen();
    fake.start({ url: "http://127.0.0.1/old.bin" });
    await tick(5);
    assertEquals(await downloads.createdSince(Date.now(), 0), undefined);
    assertEquals(searches, 0);
    const since = Date.now();
    fake.start({ url: "http://127.0.0.1/new.bin", filename: "/d/new.bin", state: "complete" });
    assertEquals((await downloads.createdSince(since, 0))?.url, "http://127.0.0.1/new.bin");
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

Deno.test("createdSince credits the acting tab only with a download that came from it (two tabs)", async () => {
  const fake = fakeDownloads();
  const frames: Record<number, string[]> = {
    7: ["https://shop.test/cart", "https://pay.test/frame", "about:blank"],
    8: ["https://ads.test/"],
  };
  await withChrome({
    downloads: fake.api,
    webNavigation: {
      getAllFrames: ({ tabId }: { tabId: number }) =>
        Promise.resolve((frames[tabId] ?? []).map((url, frameId) => ({ frameId, url }))),
    },
  }, async () => {
    const seen = new Set(["https://cdn.test/invoice.pdf"]);
    const downloads = createDownloads({
      requested: (tabId, url) => tabId === 7 && seen.has(url),
    });
    downloads.listen();
    const settled = { filename: "/d/f", state: "complete" } as Partial<Item>;
    const since = Date.now() - 5;
    // Another tab's download (its page's origin, its referrer) starts while tab 7's action runs.
    fake.start({ url: "https://ads.test/setup.exe", referrer: "https://ads.test/", ...settled });
    assertEquals(await downloads.createdSince(since, 60, 7), undefined);
    // A data: URL has no origin to match, and an empty referrer names no tab.
    fake.start({ url: "data:text/plain,hi", referrer: "", ...settled });
    assertEquals(await downloads.createdSince(since, 0, 7), undefined);
    // Tab 7's frame's origin as referrer: its, though the other tab's started first.
    await tick(5);
    fake.start({ url: "https://files.test/a.zip", referrer: "https://pay.test/frame", ...settled });
    assertEquals((await downloads.createdSince(since, 0, 7))?.url, "https://files.test/a.zip");
    // A blob: URL the tab's page made, no referrer.
    await tick(5);
    let from = Date.now();
    fake.start({ url: "blob:https://shop.test/5a1e", referrer: "", ...settled });
    assertEquals((await downloads.createdSince(from, 0, 7))?.url, "blob:https://shop.test/5a1e");
    // A URL the network log saw the tab request (a link to another site that became a download).
    await tick(5);
    from = Date.now();
    fake.start({ url: "https://cdn.test/invoice.pdf", referrer: "", ...settled });
    assertEquals(await downloads.createdSince(from, 0, 8), undefined);
    assertEquals((await downloads.createdSince(from, 0, 7))?.url, "https://cdn.test/invoice.pdf");
    const listed = await downloads.list({ limit: 10 });
    assertEquals(
      listed.map((d) => [d.url, d.tabId]),
      [
        ["https://cdn.test/invoice.pdf", 7],
        ["blob:https://shop.test/5a1e", 7],
        ["https://files.test/a.zip", 7],
        ["data:text/plain,hi", undefined],
        ["https://ads.test/setup.exe", undefined],
      ],
    );
  });
});
