/**
 * The agent's tabs (docs/decisions/074-the-agents-tab-group.md): the tabs a browser tool read or
 * acted on join a tab group titled "hub" in their window, so a person sees what the agent drives.
 * A member is a tab in a group titled exactly "hub" (whoever put it there: a tab the person drags
 * in counts), or a tab the agent opened (browser_open_tab) that is still open, grouped or not.
 *
 * The person stays in charge: a pinned tab, a tab in one of their own groups, or a tab in a window
 * that cannot hold groups is left where it is, and a tab they take out of the hub group is never
 * put back. A group they rename is no longer hub's. What hub remembers (the tabs it opened, the
 * tabs it grouped, the tabs taken out) lives in `chrome.storage.session`, so a restarted service
 * worker still knows it; the "hub" groups themselves are found again by their title.
 */
import { type HubError, hubError } from "../../../protocol/errors.ts";
import type { TableStorage } from "./browser_methods/ref_frames.ts";
import { createKeyedQueue } from "./keyed_queue.ts";

/** The title of the agent's group in each window, and its colour. */
export const AGENT_GROUP_TITLE = "hub";
export const AGENT_GROUP_COLOR = "cyan";

const NO_GROUP = -1;
const STORAGE_KEY = "agentGroup";

export interface AgentGroup {
  /**
   * Puts the tab into its window's "hub" group (made when missing: title "hub", colour cyan),
   * unless pinned, in another group, in a window that cannot hold groups, or taken out by the
   * user before. Never throws.
   */
  join(tabId: number): Promise<void>;
  /** The agent opened this tab (tabs.open): a member even if it could not be grouped; joins. */
  opened(tabId: number): Promise<void>;
  /** Member: in a group titled "hub", or opened by the agent and still open. */
  has(tabId: number): Promise<boolean>;
  /** For browser_list_tabs: whether this tab (as chrome.tabs.query gave it) is a member. Sync. */
  isMember(tab: chrome.tabs.Tab): boolean;
}

/** What the group uses of Chromium: `chrome` in the extension, a fake in tests. */
export interface GroupChrome {
  tabs: Pick<
    typeof chrome.tabs,
    "get" | "query" | "group" | "onUpdated" | "onRemoved" | "onReplaced"
  >;
  tabGroups: Pick<
    typeof chrome.tabGroups,
    "get" | "query" | "update" | "onCreated" | "onUpdated" | "onRemoved"
  >;
  storage: { session: TableStorage };
}

/** The tab ids hub remembers, as stored. */
interface Remembered {
  /** Opened by the agent (tabs.open). */
  opened: number[];
  /** Put into a "hub" group (by hub, or dragged in by the person). */
  grouped: number[];
  /** Taken out of the "hub" group by the person: never grouped again. */
  left: number[];
}

/** TAB_NOT_IN_AGENT_GROUP: agentTabsOnly is on and `tabId` is not one of the agent's tabs. */
export function notInAgentGroupError(tabId: number): HubError {
  return hubError(
    "TAB_NOT_IN_AGENT_GROUP",
    `Tab ${tabId} is not in the "${AGENT_GROUP_TITLE}" tab group, and agentTabsOnly is on. ` +
      `Drag the tab into the "${AGENT_GROUP_TITLE}" group, open the page with browser_open_tab, ` +
      "or turn it off: hub config set agentTabsOnly false.",
    { tabId },
  );
}

/**
 * The agent group over `api`. Its listeners register now: call it synchronously at the top of
 * background.ts. It starts reading what it remembers and the existing "hub" groups at once, so
 * `isMember` knows them by the time a call can arrive (a call comes over the link the worker
 * opens after this).
 */
export function createAgentGroup(api: GroupChrome = chrome): AgentGroup {
  const opened = new Set<number>();
  const grouped = new Set<number>();
  const left = new Set<number>();
  /** Every group titled "hub", by id → its window. */
  const hubGroups = new Map<number, number>();
  const queue = createKeyedQueue<number>();
  let saving = Promise.resolve();

  function save() {
    const value: Remembered = { opened: [...opened], grouped: [...grouped], left: [...left] };
    saving = saving.then(() => api.storage.session.set({ [STORAGE_KEY]: value }))
      .catch((error) => console.warn("hub: cannot keep the agent's tabs", error));
  }

  function forget(tabId: number) {
    const known = [opened, grouped, left].map((set) => set.delete(tabId));
    if (known.includes(true)) save();
  }

  const loaded = load(api, { opened, grouped, left }, hubGroups);
  listen(api, hubGroups, {
    groupChanged(tabId, groupId) {
      if (hubGroups.has(groupId)) {
        grouped.add(tabId);
        left.delete(tabId);
      } else if (grouped.delete(tabId)) left.add(tabId);
      else return;
      save();
    },
    removed: forget,
    replaced(added, removed) {
      for (const set of [opened, grouped, left]) if (set.delete(removed)) set.add(added);
      save();
    },
  });

  async function isHubGroup(groupId: number): Promise<boolean> {
    if (groupId === NO_GROUP) return false;
    const group = await api.tabGroups.get(groupId).catch(() => undefined);
    if (group?.title === AGENT_GROUP_TITLE) hubGroups.set(groupId, group.windowId);
    else hubGroups.delete(groupId);
    return group?.title === AGENT_GROUP_TITLE;
  }

  /** Puts the tab into its window's "hub" group, made (with the tab in it) when there is none. */
  async function groupInto(tab: chrome.tabs.Tab): Promise<number> {
    const tabIds = tab.id!;
    const inWindow = await api.tabGroups.query({ windowId: tab.windowId });
    const existing = inWindow.find((group) => group.title === AGENT_GROUP_TITLE);
    if (existing) {
      hubGroups.set(existing.id, existing.windowId);
      return await api.tabs.group({ tabIds, groupId: existing.id });
    }
    const groupId = await api.tabs.group({ tabIds, createProperties: { windowId: tab.windowId } });
    await api.tabGroups.update(groupId, { title: AGENT_GROUP_TITLE, color: AGENT_GROUP_COLOR });
    hubGroups.set(groupId, tab.windowId);
    return groupId;
  }

  async function joinNow(tabId: number): Promise<void> {
    await loaded;
    if (left.has(tabId)) return;
    const tab = await api.tabs.get(tabId).catch(() => undefined);
    if (!tab || tab.pinned) return;
    if (tab.groupId !== NO_GROUP) {
      // Already in a group: the person's own (left alone), or a "hub" one (most calls: the
      // groups' events keep `hubGroups` current, so no lookup is needed).
      const hub = hubGroups.has(tab.groupId) || await isHubGroup(tab.groupId);
      if (hub && !grouped.has(tabId)) {
        grouped.add(tabId);
        save();
      }
      return;
    }
    await queue.run(tab.windowId, async () => {
      const now = await api.tabs.get(tabId).catch(() => undefined);
      if (!now || now.pinned || now.groupId !== NO_GROUP || left.has(tabId)) return;
      await groupInto(now);
      grouped.add(tabId);
      save();
    });
  }

  // A popup or app window cannot hold groups; a tab may close meanwhile: it stays as it is.
  const join = (tabId: number) => joinNow(tabId).catch(() => {});

  return {
    join,
    async opened(tabId) {
      await loaded;
      if (!opened.has(tabId)) {
        opened.add(tabId);
        save();
      }
      await join(tabId);
    },
    async has(tabId) {
      await loaded;
      if (opened.has(tabId)) return true;
      const tab = await api.tabs.get(tabId).catch(() => undefined);
      return tab !== undefined && await isHubGroup(tab.groupId);
    },
    isMember(tab) {
      if (tab.id === undefined) return false;
      return opened.has(tab.id) || hubGroups.has(tab.groupId);
    },
  };
}

/** Reads what hub remembered (of tabs still open) and finds the "hub" groups; never rejects. */
async function load(
  api: GroupChrome,
  into: { opened: Set<number>; grouped: Set<number>; left: Set<number> },
  hubGroups: Map<number, number>,
): Promise<void> {
  try {
    const [stored, tabs, groups] = await Promise.all([
      api.storage.session.get(STORAGE_KEY),
      api.tabs.query({}),
      api.tabGroups.query({}),
    ]);
    const open = new Set(tabs.map((tab) => tab.id));
    const saved = (stored as Record<string, Partial<Remembered> | undefined>)[STORAGE_KEY] ?? {};
    for (const name of ["opened", "grouped", "left"] as const) {
      // Ids added since the worker started stay; closed tabs' ids are dropped.
      for (const id of saved[name] ?? []) if (open.has(id)) into[name].add(id);
    }
    for (const group of groups) {
      if (group.title === AGENT_GROUP_TITLE) hubGroups.set(group.id, group.windowId);
    }
  } catch (error) {
    console.warn("hub: cannot read the agent's tabs", error);
  }
}

/** What the listeners report. */
interface GroupEvents {
  /** A tab's group changed (to NO_GROUP when it left every group). */
  groupChanged(tabId: number, groupId: number): void;
  removed(tabId: number): void;
  replaced(added: number, removed: number): void;
}

/** Registers the Chromium listeners: tabs' group changes, tabs closed, groups renamed or gone. */
function listen(api: GroupChrome, hubGroups: Map<number, number>, events: GroupEvents): void {
  const noteGroup = (group: chrome.tabGroups.TabGroup) => {
    if (group.title === AGENT_GROUP_TITLE) hubGroups.set(group.id, group.windowId);
    else hubGroups.delete(group.id);
  };
  api.tabGroups.onCreated.addListener(noteGroup);
  api.tabGroups.onUpdated.addListener(noteGroup);
  api.tabGroups.onRemoved.addListener((group) => hubGroups.delete(group.id));
  api.tabs.onUpdated.addListener((tabId, info) => {
    if (info.groupId !== undefined) events.groupChanged(tabId, info.groupId);
  });
  api.tabs.onRemoved.addListener((tabId) => events.removed(tabId));
  api.tabs.onReplaced.addListener((added, removed) => events.replaced(added, removed));
}
