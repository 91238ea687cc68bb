/// <reference lib="deno.ns" />
import { withChrome } from "../_test_fixtures.ts";
import { assertEquals, assertRejects } from "../../../../tests/helpers/assert.ts";
import { graceFor, NAVIGATION_GRACE_MS, withNavigation } from "./action_navigation.ts";
import { type FakeTabChrome, fakeTabChrome, listenerCount } from "./_fake_tab_events.ts";

const main = { tabId: 7, frameId: 0 };
const CLICKED = { tabId: 7, clicked: true };
/** A grace window long enough that a test's events always fall inside it. */
const GRACE = { graceMs: 2_000, timeoutMs: 5_000 };
const later = (fn: () => void, ms = 5) => setTimeout(fn, ms);

/** The old page, then (once `navigate` runs) the new page still loading. */
function tabChrome(): FakeTabChrome {
  return fakeTabChrome({ id: 7, status: "complete", url: "http://x/old", title: "Old" });
}

function loadNewPage(fake: FakeTabChrome) {
  fake.webNavigation.onBeforeNavigate.emit(main);
  fake.tab = { id: 7, status: "loading", url: "http://x/old", pendingUrl: "http://x/new" };
  later(() => {
    fake.webNavigation.onCommitted.emit(main);
    fake.tab = { id: 7, status: "loading", url: "http://x/new", title: "New" };
    fake.webNavigation.onCompleted.emit({ tabId: 7, frameId: 2 }); // a subframe: not yet
    later(() => {
      fake.tab = { id: 7, status: "complete", url: "http://x/new", title: "New" };
      fake.webNavigation.onCompleted.emit(main);
    });
  });
}

Deno.test("withNavigation: a navigation begun after the action is waited for", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    // The action answers first; the navigation begins within the grace window.
    const answer = await withNavigation(7, { wait: true, ...GRACE }, () => {
      later(() => loadNewPage(fake));
      return Promise.resolve(CLICKED);
    });
    assertEquals(answer, {
      ...CLICKED,
      navigated: true,
      url: "http://x/new",
      title: "New",
      loaded: true,
    });
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("withNavigation: a navigation begun during the action and replaced by another", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    const answer = await withNavigation(7, { wait: true, ...GRACE }, () => {
      fake.webNavigation.onBeforeNavigate.emit(main); // the link
      fake.webNavigation.onBeforeNavigate.emit(main); // a page script's own location change
      fake.webNavigation.onErrorOccurred.emit(main); // the link's navigation, cancelled
      later(() => {
        fake.webNavigation.onCommitted.emit(main);
        fake.tab = { id: 7, status: "complete", url: "http://x/script", title: "Script" };
        fake.webNavigation.onCompleted.emit(main);
      });
      return Promise.resolve(CLICKED);
    });
    assertEquals([answer.navigated, answer.url, answer.loaded], [true, "http://x/script", true]);
  });
});

Deno.test("withNavigation: no navigation answers after the grace window, unchanged", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    const answer = await withNavigation(7, { wait: true, graceMs: 30 }, () => {
      fake.webNavigation.onBeforeNavigate.emit({ tabId: 7, frameId: 3 }); // an iframe
      fake.webNavigation.onBeforeNavigate.emit({ tabId: 8, frameId: 0 }); // another tab
      fake.tabs.onCreated.emit({ id: 9 }); // a tab this one did not open
      return Promise.resolve(CLICKED);
    });
    assertEquals(answer, CLICKED);
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("withNavigation: waitForLoad false waits for nothing, reports what was seen", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    const answer = await withNavigation(7, { wait: false, ...GRACE }, () => {
      fake.webNavigation.onBeforeNavigate.emit(main);
      fake.tab = { id: 7, status: "loading", url: "http://x/old", pendingUrl: "http://x/new" };
      return Promise.resolve(CLICKED);
    });
    // Never committed nor completed: the answer did not wait for it.
    assertEquals(answer, {
      ...CLICKED,
      navigated: true,
      url: "http://x/new",
      title: "",
      loaded: false,
    });
    // A navigation that begins after the action answered is not waited for.
    const late = await withNavigation(7, { wait: false, ...GRACE }, () => {
      later(() => fake.webNavigation.onBeforeNavigate.emit(main));
      return Promise.resolve(CLICKED);
    });
    assertEquals(late, CLICKED);
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("withNavigation: the load wait is bounded; a failed navigation ends it", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    const slow = await withNavigation(7, { wait: true, graceMs: 2_000, timeoutMs: 50 }, () => {
      fake.webNavigation.onBeforeNavigate.emit(main);
      return Promise.resolve(CLICKED);
    });
    assertEquals([slow.navigated, slow.loaded], [true, false]);
    // A download (or an error) fails the navigation: the tab keeps its page.
    const download = await withNavigation(7, { wait: true, ...GRACE }, () => {
      fake.webNavigation.onBeforeNavigate.emit(main);
      later(() => fake.webNavigation.onErrorOccurred.emit(main));
      return Promise.resolve(CLICKED);
    });
    assertEquals([download.navigated, download.url, download.loaded], [
      true,
      "http://x/old",
      false,
    ]);
  });
});

Deno.test("withNavigation: a same-document change (pushState, #fragment) counts at once", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    const answer = await withNavigation(7, { wait: true, ...GRACE }, () => {
      fake.tab = { id: 7, status: "complete", url: "http://x/old#b", title: "Old" };
      fake.webNavigation.onReferenceFragmentUpdated.emit(main);
      return Promise.resolve(CLICKED);
    });
    assertEquals([answer.navigated, answer.url, answer.loaded], [true, "http://x/old#b", true]);
  });
});

Deno.test("withNavigation: a tab the action opened is newTab", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    const link = await withNavigation(7, { wait: true, ...GRACE }, () => {
      later(() => {
        fake.tabs.onCreated.emit({ id: 12, openerTabId: 7, url: "", pendingUrl: "" });
        fake.webNavigation.onCreatedNavigationTarget.emit({
          sourceTabId: 7,
          sourceFrameId: 0,
          tabId: 12,
          url: "http://x/other",
        });
      });
      return Promise.resolve(CLICKED);
    });
    assertEquals(link, { ...CLICKED, newTab: { tabId: 12, url: "http://x/other" } });
    // window.open: only the tab's creation, whose pending URL names the page.
    const opened = await withNavigation(7, { wait: true, ...GRACE }, () => {
      fake.tabs.onCreated.emit({ id: 13, openerTabId: 7, pendingUrl: "http://x/popup" });
      return Promise.resolve(CLICKED);
    });
    assertEquals(opened, { ...CLICKED, newTab: { tabId: 13, url: "http://x/popup" } });
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("withNavigation: a failed action fails as it did and stops watching", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    await assertRejects(
      () => withNavigation(7, { wait: true }, () => Promise.reject(new Error("not found"))),
      Error,
      "not found",
    );
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("graceFor: no window when the page saw nothing that navigates, else the full one", () => {
  assertEquals(graceFor("none"), 0);
  assertEquals(graceFor("possible"), NAVIGATION_GRACE_MS);
  assertEquals(graceFor(undefined), NAVIGATION_GRACE_MS, "the page could not tell");
  assertEquals(graceFor("possible", 2_000), 2_000);
});

Deno.test("withNavigation: the page saw nothing that navigates, so it answers at once", async () => {
  const fake = tabChrome();
  await withChrome(fake, async () => {
    // A long grace window, unused: a navigation a timer starts later is not waited for.
    const quiet = await withNavigation(7, { wait: true, ...GRACE }, (onPage) => {
      onPage("none");
      later(() => fake.webNavigation.onBeforeNavigate.emit(main));
      return Promise.resolve(CLICKED);
    });
    assertEquals(quiet, CLICKED);
    await new Promise((resolve) => setTimeout(resolve, 20)); // that later navigation, gone by
    // What the browser reported before the answer still counts: a page script's window.open.
    const opened = await withNavigation(7, { wait: true, ...GRACE }, (onPage) => {
      onPage("none");
      fake.tabs.onCreated.emit({ id: 13, openerTabId: 7, pendingUrl: "http://x/popup" });
      return Promise.resolve(CLICKED);
    });
    assertEquals(opened, { ...CLICKED, newTab: { tabId: 13, url: "http://x/popup" } });
    // A submission the page saw: its navigation, begun after the answer, is waited for.
    const submitted = await withNavigation(7, { wait: true, ...GRACE }, (onPage) => {
      onPage("possible");
      later(() => loadNewPage(fake));
      return Promise.resolve(CLICKED);
    });
    assertEquals([submitted.navigated, submitted.url, submitted.loaded], [
      true,
      "http://x/new",
      true,
    ]);
    assertEquals(listenerCount(fake), 0);
  });
});
