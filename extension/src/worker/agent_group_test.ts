/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { fakeStorageArea } from "./_test_fixtures.ts";
import {
  AGENT_GROUP_COLOR,
  AGENT_GROUP_TITLE,
  createAgentGroup,
  type GroupChrome,
  notInAgentGroupError,
} from "./agent_group.ts";

type Listener = (...args: never[]) => void;

function event() {
  const listeners: Listener[] = [];
  return {
    addListener: (listener: Listener) => listeners.push(listener),
    fire: (...args: unknown[]) =>
      listeners.forEach((l) => (l as (...a: unknown[]) => void)(...args)),
  };
}

interface FakeTab {
  id: number;
  windowId: number;
  groupId: number;
  pinned: boolean;
}

/** A fake browser: tabs, groups, windows (a "popup" window cannot hold groups), their events. */
function fakeBrowser() {
  const tabs = new Map<number, FakeTab>();
  const groups = new Map<number, chrome.tabGroups.TabGroup>();
  const popups = new Set<number>();
  const ev = {
    tabUpdated: event(),
    tabRemoved: event(),
    tabReplaced: event(),
    groupCreated: event(),
    groupUpdated: event(),
    groupRemoved: event(),
  };
  let nextGroup = 100;
  const { storage } = fakeStorageArea();

  function setGroup(tabId: number, groupId: number) {
    const tab = tabs.get(tabId)!;
    const was = tab.groupId;
    tab.groupId = groupId;
    ev.tabUpdated.fire(tabId, { groupId }, { ...tab });
    const emptied = was !== -1 && ![...tabs.values()].some((t) => t.groupId === was);
    if (emptied) {
      const gone = groups.get(was)!;
      groups.delete(was);
      ev.groupRemoved.fire(gone);
    }
  }

  const api = {
    tabs: {
      get: (id: number) =>
        tabs.has(id) ? Promise.resolve({ ...tabs.get(id)! }) : Promise.reject(new Error("No tab")),
      query: () => Promise.resolve([...tabs.values()].map((t) => ({ ...t }))),
      group(
        options: { tabIds: number; groupId?: number; createProperties?: { windowId: number } },
      ) {
        const tab = tabs.get(options.tabIds)!;
        if (popups.has(tab.windowId)) {
          return Promise.reject(new Error("Tabs can only be moved to and from normal windows."));
        }
        let groupId = options.groupId;
        if (groupId === undefined) {
          groupId = nextGroup++;
          const group = { id: groupId, windowId: tab.windowId, color: "grey", collapsed: false };
          groups.set(groupId, group as chrome.tabGroups.TabGroup);
          ev.groupCreated.fire({ ...group });
        }
        setGroup(tab.id, groupId);
        return Promise.resolve(groupId);
      },
      onUpdated: ev.tabUpdated,
      onRemoved: ev.tabRemoved,
      onReplaced: ev.tabReplaced,
    },
    tabGroups: {
      get: (id: number) =>
        groups.has(id)
          ? Promise.resolve({ ...groups.get(id)! })
          : Promise.reject(new Error("No group")),
      query: (q: { windowId?: number }) =>
        Promise.resolve(
          [...groups.values()].filter((g) => q.windowId === undefined || g.windowId === q.windowId)
            .map((g) => ({ ...g })),
        ),
      update(id: number, changes: Partial<chrome.tabGroups.TabGroup>) {
        Object.assign(groups.get(id)!, changes);
        ev.groupUpdated.fire({ ...groups.get(id)! });
        return Promise.resolve({ ...groups.get(id)! });
      },
      onCreated: ev.groupCreated,
      onUpdated: ev.groupUpdated,
      onRemoved: ev.groupRemoved,
    },
    storage: { session: storage },
  };

  return {
    api: api as unknown as GroupChrome,
    tabs,
    groups,
    popups,
    open(id: number, windowId = 1, fields: Partial<FakeTab> = {}) {
      tabs.set(id, { id, windowId, groupId: -1, pinned: false, ...fields });
    },
    close(id: number) {
      tabs.delete(id);
      ev.tabRemoved.fire(id, { windowId: 1, isWindowClosing: false });
    },
    /** Chromium swaps tab `removed` for `added` (a prerendered page). */
    replace(added: number, removed: number) {
      tabs.set(added, { ...tabs.get(removed)!, id: added });
      tabs.delete(removed);
      ev.tabReplaced.fire(added, removed);
    },
    /** The person drags the tab out of its group (or into `groupId`). */
    drag: (tabId: number, groupId = -1) => setGroup(tabId, groupId),
    /** The person makes a group of their own. */
    userGroup(tabId: number, title: string): number {
      const id = nextGroup++;
      groups.set(
        id,
        { id, title, windowId: tabs.get(tabId)!.windowId } as chrome.tabGroups.TabGroup,
      );
      ev.groupCreated.fire({ ...groups.get(id)! });
      setGroup(tabId, id);
      return id;
    },
    rename(groupId: number, title: string) {
      groups.get(groupId)!.title = title;
      ev.groupUpdated.fire({ ...groups.get(groupId)! });
    },
    hubGroups: () => [...groups.values()].filter((g) => g.title === AGENT_GROUP_TITLE),
  };
}

const chromeTab = (tab: FakeTab) => ({ ...tab }) as unknown as chrome.tabs.Tab;

Deno.test("join: a tab goes into its window's one hub group, made cyan and titled hub", async () => {
  const browser = fakeBrowser();
  browser.open(1), browser.open(2), browser.open(3, 2);
  const group = createAgentGroup(browser.api);
  await Promise.all([group.join(1), group.join(2), group.join(3)]);
  const made = browser.hubGroups();
  assertEquals(made.length, 2);
  assertEquals(made.map((g) => [g.windowId, g.color]).sort(), [[1, AGENT_GROUP_COLOR], [
    2,
    AGENT_GROUP_COLOR,
  ]]);
  assertEquals(browser.tabs.get(1)!.groupId, browser.tabs.get(2)!.groupId);
  for (const id of [1, 2, 3]) {
    assert(await group.has(id));
    assert(group.isMember(chromeTab(browser.tabs.get(id)!)));
  }
  await group.join(1);
  assertEquals(browser.hubGroups().length, 2);
});

Deno.test("join: pinned tabs, the person's own groups and popup windows are left alone", async () => {
  const browser = fakeBrowser();
  browser.open(1, 1, { pinned: true }), browser.open(2), browser.open(3, 9);
  browser.popups.add(9);
  const theirs = browser.userGroup(2, "work");
  const group = createAgentGroup(browser.api);
  for (const id of [1, 2, 3]) await group.join(id);
  assertEquals(browser.tabs.get(1)!.groupId, -1);
  assertEquals(browser.tabs.get(2)!.groupId, theirs);
  assertEquals(browser.tabs.get(3)!.groupId, -1);
  assertEquals(browser.hubGroups().length, 0);
  for (const id of [1, 2, 3, 99]) assertEquals(await group.has(id), false);
  await group.join(99);
});

Deno.test("a tab the person takes out stays out; one they drag in is a member", async () => {
  const browser = fakeBrowser();
  browser.open(1), browser.open(2), browser.open(3);
  const group = createAgentGroup(browser.api);
  await group.join(1);
  await group.join(2);
  const hub = browser.tabs.get(1)!.groupId;
  browser.drag(2);
  await group.join(2);
  assertEquals(browser.tabs.get(2)!.groupId, -1);
  assertEquals(await group.has(2), false);
  assertEquals(group.isMember(chromeTab(browser.tabs.get(2)!)), false);
  browser.drag(3, hub);
  assert(await group.has(3));
  assert(group.isMember(chromeTab(browser.tabs.get(3)!)));
  browser.drag(2, hub);
  assert(await group.has(2));
});

Deno.test("a group the person renames is no longer hub's; one they title hub is", async () => {
  const browser = fakeBrowser();
  browser.open(1), browser.open(2), browser.open(3);
  const group = createAgentGroup(browser.api);
  await group.join(1);
  const hub = browser.tabs.get(1)!.groupId;
  browser.rename(hub, "mine");
  assertEquals(await group.has(1), false);
  assertEquals(group.isMember(chromeTab(browser.tabs.get(1)!)), false);
  await group.join(2);
  assert(browser.tabs.get(2)!.groupId !== hub);
  const theirs = browser.userGroup(3, AGENT_GROUP_TITLE);
  assert(await group.has(3));
  assert(group.isMember(chromeTab(browser.tabs.get(3)!)));
  assert(theirs !== hub);
  browser.open(4);
  const before = browser.hubGroups().map((g) => g.id);
  await group.join(4);
  assertEquals(browser.hubGroups().map((g) => g.id), before, "no new group");
  assert(before.includes(browser.tabs.get(4)!.groupId));
});

Deno.test("opened: a member even where it cannot be grouped, until it closes or is replaced", async () => {
  const browser = fakeBrowser();
  browser.open(1, 9), browser.open(2);
  browser.popups.add(9);
  const group = createAgentGroup(browser.api);
  await group.opened(1);
  await group.opened(2);
  await group.opened(2);
  assertEquals(browser.tabs.get(1)!.groupId, -1);
  assert(await group.has(1));
  assert(group.isMember(chromeTab(browser.tabs.get(1)!)));
  assertEquals(browser.hubGroups().length, 1);
  browser.drag(2);
  assert(await group.has(2), "opened by the agent: still a member out of the group");
  browser.close(1);
  assertEquals(await group.has(1), false);
  browser.replace(50, 2);
  assert(await group.has(50), "the tab that replaced an opened one is the agent's");
  assertEquals(await group.has(2), false);
});

Deno.test("a restarted worker finds the hub groups and remembers the tabs taken out", async () => {
  const browser = fakeBrowser();
  browser.open(1), browser.open(2), browser.open(3), browser.open(4, 9);
  browser.popups.add(9);
  const before = createAgentGroup(browser.api);
  await before.join(1);
  await before.join(2);
  await before.opened(4);
  browser.drag(2);
  await new Promise((resolve) => setTimeout(resolve, 0));
  const after = createAgentGroup(browser.api);
  await after.join(3);
  await after.join(2);
  assertEquals(browser.hubGroups().length, 1);
  assertEquals(browser.tabs.get(3)!.groupId, browser.tabs.get(1)!.groupId);
  assertEquals(browser.tabs.get(2)!.groupId, -1);
  assert(await after.has(4));
  assert(after.isMember(chromeTab(browser.tabs.get(1)!)));
});

Deno.test("notInAgentGroupError says how to add the tab", () => {
  const error = notInAgentGroupError(7);
  assertEquals(error.code, "TAB_NOT_IN_AGENT_GROUP");
  assertEquals(error.payload.category, "permission");
  assertEquals(error.payload.details, { tabId: 7 });
  assertEquals(
    error.message,
    'Tab 7 is not in the "hub" tab group, and agentTabsOnly is on. Drag the tab into the "hub" ' +
      "group, open the page with browser_open_tab, or turn it off: hub config set agentTabsOnly " +
      "false.",
  );
});
