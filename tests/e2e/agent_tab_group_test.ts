/**
 * The agent's tab group end to end (docs/decisions/074-the-agents-tab-group.md): real hub, real
 * Chromium with the installed extension, the test web app. What the browser did is read back from
 * Chromium itself (`chrome.tabGroups` and `chrome.tabs` in the extension's service worker), not
 * through the hub. Headless Chromium draws no tab strip, so there is no screenshot of it: the
 * groups are read back instead.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  callTool,
  type E2E,
  e2eTest,
  markWorker,
  waitForExtension,
  waitForNewWorker,
} from "../helpers/e2e_fixture.ts";
import { type ApiReply, eventually, readConfig, writeConfig } from "../helpers/hub_api.ts";
import { connectMcp } from "../helpers/mcp_client.ts";
import { failed, listTabs, ok, tabIdOf } from "../helpers/tool_replies.ts";

// What the evaluated functions below use inside the extension's service worker.
declare const chrome: {
  tabs: {
    query(q: object): Promise<{ id?: number; groupId: number; windowId: number }[]>;
    ungroup(tabId: number): Promise<void>;
    group(options: { tabIds: number; groupId: number }): Promise<number>;
  };
  tabGroups: {
    query(q: object): Promise<{ id: number; title?: string; color: string; windowId: number }[]>;
  };
  windows: { create(data: { url: string }): Promise<{ id?: number; tabs?: { id?: number }[] }> };
};

interface Seen {
  groups: { id: number; title?: string; color: string; windowId: number }[];
  /** Each tab's group (-1: none), by tab id. */
  groupOf: Record<number, number>;
}

/** The tab groups and each tab's group, as Chromium has them. */
async function seen(e2e: E2E): Promise<Seen> {
  const worker = await e2e.browser.serviceWorker();
  return await worker.evaluate(async () => {
    const groups = (await chrome.tabGroups.query({})).map(({ id, title, color, windowId }) => ({
      id,
      title,
      color,
      windowId,
    }));
    const tabs = await chrome.tabs.query({});
    return { groups, groupOf: Object.fromEntries(tabs.map((t) => [t.id, t.groupId])) };
  });
}

/** Runs `body` with `arg` in the service worker (the person's hand on the tab strip). */
async function inWorker<A, R>(e2e: E2E, body: (arg: A) => Promise<R>, arg: A): Promise<R> {
  const worker = await e2e.browser.serviceWorker();
  return await worker.evaluate(body as (arg: unknown) => Promise<R>, arg);
}

/**
 * Stops the extension's service worker as Chromium does when it idles (its target closed over
 * CDP); `wake` then does what starts a new one (a tab event), which reconnects to the hub.
 */
async function restartWorker<T>(e2e: E2E, wake: () => Promise<T>): Promise<T> {
  await markWorker(e2e);
  const cdp = await e2e.browser.context.browser()!.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send("Target.getTargets");
    const worker = targetInfos.find((target) =>
      target.type === "service_worker" && target.url.endsWith("/background.js")
    );
    assert(worker, JSON.stringify(targetInfos));
    await cdp.send("Target.closeTarget", { targetId: worker.targetId });
  } finally {
    await cdp.detach().catch(() => {});
  }
  // Chromium keeps the worker's target (and playwright its handle); its globals are new.
  const woken = await wake();
  await waitForNewWorker(e2e);
  return woken;
}

/** Whether browser_list_tabs marks `tabId` as one of the agent's tabs. */
async function marked(e2e: E2E, tabId: number): Promise<boolean | undefined> {
  return (await listTabs(e2e)).find((tab) => tab.tabId === tabId)?.agentGroup;
}

e2eTest(import.meta.url, "the agent's tabs join a hub tab group, one per window", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const url = (path: string) => new URL(path, e2e.app.url).href;
  const [a, b, c] = await Promise.all(["a", "b", "c"].map((n) => e2e.open(`/counter?name=${n}`)));
  const [tabA, tabB, tabC] = await Promise.all([a, b, c].map((page) => tabIdOf(e2e, page)));
  let hubGroup = -1;
  let opened = -1;

  await t.step("listing tabs joins no tab to a group", async () => {
    const tabs = await listTabs(e2e);
    assert(tabs.length >= 3, JSON.stringify(tabs));
    assertEquals(tabs.filter((tab) => tab.agentGroup), []);
    assertEquals((await seen(e2e)).groups, []);
  });

  await t.step("a tab the agent read joins a group titled hub, cyan", async () => {
    ok(await callTool(e2e, "browser_get_page_text", { tabId: tabA }), "page text");
    const { groups, groupOf } = await seen(e2e);
    assertEquals(groups.map(({ title, color }) => ({ title, color })), [
      { title: "hub", color: "cyan" },
    ]);
    hubGroup = groups[0].id;
    assertEquals([groupOf[tabA], groupOf[tabB], groupOf[tabC]], [hubGroup, -1, -1]);
    assertEquals([await marked(e2e, tabA), await marked(e2e, tabB)], [true, false]);
  });

  await t.step("a tab the agent acted on joins the same group", async () => {
    await b.bringToFront();
    ok(
      await callTool(e2e, "browser_click_element", { tabId: tabB, selector: "#count" }),
      "click",
    );
    const { groups, groupOf } = await seen(e2e);
    assertEquals(groups.length, 1);
    assertEquals(groupOf[tabB], hubGroup);
    assertEquals(await marked(e2e, tabB), true);
  });

  await t.step("a tab the agent opens is in the group when the call answers", async () => {
    const value = ok(
      await callTool(e2e, "browser_open_tab", {
        url: url("/counter?name=opened"),
        waitForLoad: false,
      }),
      "open",
    );
    opened = value.tabId;
    assertEquals((await seen(e2e)).groupOf[opened], hubGroup);
    assertEquals(await marked(e2e, opened), true);
  });

  await t.step("another window gets its own hub group", async () => {
    const other = await inWorker(
      e2e,
      async (href) => (await chrome.windows.create({ url: href })).tabs![0].id!,
      url("/counter?name=other-window"),
    );
    await eventually(
      async () => (await callTool(e2e, "browser_get_page_text", { tabId: other })).status === 200,
      () => "the other window's tab never answered",
    );
    const { groups, groupOf } = await seen(e2e);
    assertEquals(groups.map((g) => g.title), ["hub", "hub"]);
    assertEquals(new Set(groups.map((g) => g.windowId)).size, 2);
    assert(groupOf[other] !== hubGroup && groupOf[other] !== -1, JSON.stringify(groupOf));
  });

  await t.step("a tab the person takes out of the group stays out", async () => {
    await inWorker(e2e, (tabId) => chrome.tabs.ungroup(tabId), tabA);
    ok(await callTool(e2e, "browser_get_page_text", { tabId: tabA }), "page text again");
    await a.bringToFront();
    ok(await callTool(e2e, "browser_press_key", { tabId: tabA, key: "Tab" }), "key");
    assertEquals((await seen(e2e)).groupOf[tabA], -1);
    assertEquals(await marked(e2e, tabA), false);
  });

  await t.step("a tab the person drags into the group is the agent's", async () => {
    await inWorker(e2e, (ids) => chrome.tabs.group(ids), { tabIds: tabC, groupId: hubGroup });
    assertEquals(await marked(e2e, tabC), true);
  });

  await t.step("a tab the agent opened stays its own out of the group", async () => {
    await inWorker(e2e, (tabId) => chrome.tabs.ungroup(tabId), opened);
    assertEquals(await marked(e2e, opened), true);
  });

  await t.step("a restarted service worker still knows the agent's tabs", async () => {
    const groupsBefore = (await seen(e2e)).groups.map((g) => g.id).sort();
    const d = await restartWorker(e2e, () => e2e.open("/counter?name=d"));
    await eventually(
      async () => (await callTool(e2e, "browser_get_page_text", { tabId: tabB })).status === 200,
      () => "the restarted worker never answered",
    );
    ok(await callTool(e2e, "browser_get_page_text", { tabId: tabA }), "page text after restart");
    const tabD = await tabIdOf(e2e, d);
    ok(await callTool(e2e, "browser_get_page_text", { tabId: tabD }), "a new tab's text");
    const { groups, groupOf } = await seen(e2e);
    assertEquals(groups.map((g) => g.id).sort(), groupsBefore, "the same groups, no new one");
    assert(groupsBefore.includes(groupOf[tabD]), JSON.stringify({ groupOf, groupsBefore }));
    assertEquals([groupOf[tabA], groupOf[opened]], [-1, -1]);
    assertEquals(
      [await marked(e2e, tabA), await marked(e2e, tabD), await marked(e2e, opened)],
      [false, true, true],
    );
  });

  await t.step("agentTabsOnly refuses a tab outside the group", async () => {
    await writeConfig(e2e.configDir, {
      ...(await readConfig(e2e.configDir)),
      agentTabsOnly: true,
    });
    await e2e.restartHub();
    await waitForExtension(e2e);
    let reply: ApiReply | undefined;
    await eventually(async () => {
      reply = await callTool(e2e, "browser_get_page_text", { tabId: tabA });
      return reply.status !== 200;
    }, () => `tab ${tabA} was still read: ${JSON.stringify(reply?.body).slice(0, 300)}`);
    const error = failed(reply!, {
      status: 403,
      code: "TAB_NOT_IN_AGENT_GROUP",
      category: "permission",
      message: /^Tab \d+ is not in the "hub" tab group, and agentTabsOnly is on\. Drag the tab/,
    });
    assertEquals(error.details, { tabId: tabA });
    const before = a.url();
    failed(await callTool(e2e, "browser_navigate_tab", { tabId: tabA, url: url("/?moved") }), {
      status: 403,
      code: "TAB_NOT_IN_AGENT_GROUP",
    });
    assertEquals(a.url(), before);
  });

  await t.step("agentTabsOnly lets the group's tabs and the agent's new tabs through", async () => {
    for (const tabId of [tabB, tabC, opened]) {
      ok(await callTool(e2e, "browser_get_page_text", { tabId }), `page text of tab ${tabId}`);
    }
    const value = ok(
      await callTool(e2e, "browser_open_tab", { url: url("/counter?name=new") }),
      "open under agentTabsOnly",
    );
    ok(await callTool(e2e, "browser_get_page_text", { tabId: value.tabId }), "its page text");
  });

  await t.step("an MCP client reads the refusal and the way out", async () => {
    const mcp = await connectMcp(e2e.hub.url, e2e.hub.secret);
    try {
      const result = await mcp.callTool({
        name: "browser_get_page_text",
        arguments: { tabId: tabA },
      });
      assert(result.isError, JSON.stringify(result));
      const [first] = result.content as { type: string; text: string }[];
      assertMatch(first.text, /^TAB_NOT_IN_AGENT_GROUP: /);
      assertMatch(first.text, /hub config set agentTabsOnly false/);
    } finally {
      await mcp.close();
    }
  });
});
