/// <reference lib="deno.ns" />
import { failureOf, withChrome } from "../_test_fixtures.ts";
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { loadedTab, navigateAndWait, watchLoad, watchStart } from "./tab_load.ts";
import { fakeTabChrome as fakeChrome, listenerCount } from "./_fake_tab_events.ts";

const SLOW = { timeoutMs: 5_000, pollMs: 10_000 };
const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("watchLoad: complete after loading is loaded; listeners are removed", async () => {
  const fake = fakeChrome({ id: 7, status: "complete" });
  await withChrome(fake, async () => {
    const watch = watchLoad(7, SLOW);
    // A "complete" before the navigation began (the old page) does not count.
    fake.tabs.onUpdated.emit(7, { status: "complete" });
    fake.tabs.onUpdated.emit(8, { status: "loading" });
    fake.tabs.onUpdated.emit(7, { status: "loading" });
    fake.tabs.onUpdated.emit(7, { status: "complete" });
    assertEquals(await watch.loaded, true);
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("watchLoad: webNavigation commit then completed (main frame only)", async () => {
  const fake = fakeChrome({ id: 7 });
  await withChrome(fake, async () => {
    const watch = watchLoad(7, SLOW);
    let settled = false;
    void watch.loaded.then(() => (settled = true));
    fake.webNavigation.onCompleted.emit({ tabId: 7, frameId: 0 }); // not started yet
    fake.webNavigation.onCommitted.emit({ tabId: 7, frameId: 3 }); // a subframe
    fake.webNavigation.onCompleted.emit({ tabId: 7, frameId: 0 });
    await tick();
    assertEquals(settled, false);
    fake.webNavigation.onCommitted.emit({ tabId: 7, frameId: 0 });
    fake.webNavigation.onCompleted.emit({ tabId: 7, frameId: 0 });
    assertEquals(await watch.loaded, true);
  });
});

Deno.test("watchLoad: a same-document change (pushState, #fragment) is loaded at once", async () => {
  for (const event of ["onHistoryStateUpdated", "onReferenceFragmentUpdated"] as const) {
    const fake = fakeChrome({ id: 7 });
    await withChrome(fake, async () => {
      const watch = watchLoad(7, SLOW);
      fake.webNavigation[event].emit({ tabId: 9, frameId: 0 });
      fake.webNavigation[event].emit({ tabId: 7, frameId: 0 });
      assertEquals(await watch.loaded, true, event);
      assertEquals(listenerCount(fake), 0);
    });
  }
});

Deno.test("watchLoad: the tab closing, a timeout and cancel() all give false", async () => {
  const fake = fakeChrome({ id: 7, status: "loading" });
  await withChrome(fake, async () => {
    const closed = watchLoad(7, SLOW);
    fake.tabs.onRemoved.emit(7);
    assertEquals(await closed.loaded, false);

    const slow = watchLoad(7, { timeoutMs: 20, pollMs: 5 });
    fake.tabs.onUpdated.emit(7, { status: "loading" });
    assertEquals(await slow.loaded, false);

    const cancelled = watchLoad(7, SLOW);
    cancelled.cancel();
    assertEquals(await cancelled.loaded, false);
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("watchLoad: polling finds a load whose events came before the watch", async () => {
  const fake = fakeChrome({ id: 7, status: "loading", pendingUrl: "http://x/" });
  await withChrome(fake, async () => {
    const watch = watchLoad(7, { timeoutMs: 5_000, pollMs: 5, started: true });
    await new Promise((r) => setTimeout(r, 20));
    fake.tab = { id: 7, status: "complete", url: "http://x/" };
    assertEquals(await watch.loaded, true);
  });
  // Not started: a complete tab is the old page, so polling alone never says loaded.
  const idle = fakeChrome({ id: 7, status: "complete" });
  await withChrome(idle, async () => {
    assertEquals(await watchLoad(7, { timeoutMs: 30, pollMs: 5 }).loaded, false);
  });
  // The tab is gone when polled.
  const gone = fakeChrome(undefined);
  await withChrome(gone, async () => {
    assertEquals(await watchLoad(7, { timeoutMs: 5_000, pollMs: 5 }).loaded, false);
  });
});

Deno.test("navigateAndWait: a failed action stops the wait and is explained", async () => {
  const fake = fakeChrome({ id: 7 });
  await withChrome(fake, async () => {
    const error = await navigateAndWait(
      7,
      true,
      () => Promise.reject(new Error("boom")),
      (e) => new Error(`explained: ${(e as Error).message}`),
    ).then(() => undefined, (e) => e as Error);
    assertEquals(error?.message, "explained: boom");
    assertEquals(listenerCount(fake), 0);
    // Without waiting: the action runs and the answer is "not loaded".
    let ran = false;
    assertEquals(
      await navigateAndWait(7, false, () => Promise.resolve(ran = true), (e) => e as Error),
      false,
    );
    assertEquals([ran, listenerCount(fake)], [true, 0]);
  });
});

Deno.test("loadedTab: the pending url while loading; TAB_CLOSED when the tab is gone", async () => {
  const fake = fakeChrome({ id: 7, url: "http://old/", pendingUrl: "http://new/", title: "Old" });
  await withChrome(fake, async () => {
    assertEquals(await loadedTab(7, false, "x"), {
      tabId: 7,
      url: "http://new/",
      title: "Old",
      loaded: false,
    });
    fake.tab = { id: 7, url: "http://new/" };
    assertEquals(await loadedTab(7, true, "x"), {
      tabId: 7,
      url: "http://new/",
      title: "",
      loaded: true,
    });
    fake.tab = undefined;
    const failure = await failureOf(loadedTab(7, true, "browser_reload_tab"));
    assertEquals(failure.payload.code, "TAB_CLOSED");
    assertMatch(failure.message, /Tab 7 was closed while browser_reload_tab ran/);
  });
});

Deno.test("watchStart: a navigation start or URL change; false on timeout or close", async () => {
  const fake = fakeChrome({ id: 7 });
  await withChrome(fake, async () => {
    const before = watchStart(7, 5_000);
    fake.webNavigation.onBeforeNavigate.emit({ tabId: 7, frameId: 2 });
    fake.webNavigation.onBeforeNavigate.emit({ tabId: 7, frameId: 0 });
    assertEquals(await before.started, true);
    const inPlace = watchStart(7, 5_000);
    fake.tabs.onUpdated.emit(7, { title: "x" });
    fake.tabs.onUpdated.emit(7, { url: "http://x/#a" });
    assertEquals(await inPlace.started, true);
    assertEquals(await watchStart(7, 10).started, false);
    const closed = watchStart(7, 5_000);
    fake.tabs.onRemoved.emit(7);
    assertEquals(await closed.started, false);
    assertEquals(listenerCount(fake), 0);
  });
});
