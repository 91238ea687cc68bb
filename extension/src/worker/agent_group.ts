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
import { createKeyedQueue, type KeyedQueue } from "./keyed_queue.ts";

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
  const parts: Parts = {
    api,
    memory: createTabMemory(api.storage.session),
    groups: createHubGroups(api),
    queue: createKeyedQueue<number>(),
  };
  const { memory, groups } = parts;
  const loaded = Promise.all([memory.load(api), groups.load()]);
  listen(api, parts);
  // A popup or app window cannot hold groups; a tab may close meanwhile: it stays as it is.
  const join = (tabId: number) => loaded.then(() => joinTab(tabId, parts)).catch(() => {});

  return {
    join,
    async opened(tabId) {
      await loaded;
      memory.add("opened", tabId);
      await join(tabId);
    },
    async has(tabId) {
      await loaded;
      if (memory.opened.has(tabId)) return true;
      const tab = await api.tabs.get(tabId).catch(() => undefined);
      return tab !== undefined && await groups.check(tab.groupId);
    },
    isMember(tab) {
      if (tab.id === undefined) return false;
      return memory.opened.has(tab.id) || groups.has(tab.groupId);
    },
  };
}

/** What the agent group is made of. */
interface Parts {
  api: GroupChrome;
  memory: TabMemory;
  groups: HubGroups;
  /** Joins in one window run one after another: two at once make one group, not two. */
  queue: KeyedQueue<number>;
}

/** Puts the tab into its window's hub group when hub may (see `AgentGroup.join`). */
async function joinTab(tabId: number, { api, memory, groups, queue }: Parts): Promise<void> {
  if (memory.left.has(tabId)) return;
  const tab = await api.tabs.get(tabId).catch(() => undefined);
  if (!tab || tab.pinned) return;
  if (tab.groupId !== NO_GROUP) {
    // Already in a group: the person's own (left alone), or a "hub" one (most calls: the
    // groups' events keep the ids current, so no lookup is needed).
    if (groups.has(tab.groupId) || await groups.check(tab.groupId)) memory.add("grouped", tabId);
    return;
  }
  await queue.run(tab.windowId, async () => {
    const now = await api.tabs.get(tabId).catch(() => undefined);
    if (!now || now.pinned || now.groupId !== NO_GROUP || memory.left.has(tabId)) return;
    await groups.put(now);
    memory.add("grouped", tabId);
  });
}

/** The tab ids hub remembers, in memory and in `chrome.storage.session`. */
interface TabMemory {
  /** Opened by the agent (tabs.open). */
  readonly opened: ReadonlySet<number>;
  /** Taken out of the "hub" group by the person: never grouped again. */
  readonly left: ReadonlySet<number>;
  add(kind: keyof Remembered, tabId: number): void;
  /** The tab's group changed: into a "hub" group (a member), or out of one (the person's doing). */
  moved(tabId: number, intoHub: boolean): void;
  /** The tab closed, or Chromium replaced it with `added`. */
  gone(tabId: number, added?: number): void;
  /** Reads what was stored, keeping the ids of tabs still open; never rejects. */
  load(api: GroupChrome): Promise<void>;
}

function createTabMemory(storage: TableStorage): TabMemory {
  const sets: Record<keyof Remembered, Set<number>> = {
    opened: new Set(),
    grouped: new Set(),
    left: new Set(),
  };
  let saving = Promise.resolve();
  const save = () => {
    const value: Remembered = {
      opened: [...sets.opened],
      grouped: [...sets.grouped],
      left: [...sets.left],
    };
    saving = saving.then(() => storage.set({ [STORAGE_KEY]: value }))
      .catch((error) => console.warn("hub: cannot keep the agent's tabs", error));
  };
  const add = (kind: keyof Remembered, tabId: number) => {
    if (sets[kind].has(tabId)) return;
    sets[kind].add(tabId);
    if (kind === "grouped") sets.left.delete(tabId);
    save();
  };
  return {
    opened: sets.opened,
    left: sets.left,
    add,
    moved(tabId, intoHub) {
      if (intoHub) return add("grouped", tabId);
      if (!sets.grouped.delete(tabId)) return;
      sets.left.add(tabId);
      save();
    },
    gone(tabId, added) {
      const had = Object.values(sets).filter((set) => set.delete(tabId));
      if (added !== undefined) { for (const set of had) set.add(added); }
      if (had.length > 0) save();
    },
    async load(api) {
      try {
        const [stored, tabs] = await Promise.all([storage.get(STORAGE_KEY), api.tabs.query({})]);
        const open = new Set(tabs.map((tab) => tab.id));
        const saved = (stored as Record<string, Partial<Remembered> | undefined>)[STORAGE_KEY];
        for (const kind of ["opened", "grouped", "left"] as const) {
          // Ids added since the worker started stay; closed tabs' ids are dropped.
          for (const id of saved?.[kind] ?? []) if (open.has(id)) sets[kind].add(id);
        }
      } catch (error) {
        console.warn("hub: cannot read the agent's tabs", error);
      }
    },
  };
}

/** The groups titled "hub": their ids kept current from Chromium's events, and grouping into them. */
interface HubGroups {
  /** Whether `groupId` is a "hub" group, as the events told. Sync. */
  has(groupId: number): boolean;
  /** Whether `groupId` is a "hub" group, asked of Chromium (and noted). */
  check(groupId: number): Promise<boolean>;
  /** Puts the tab into its window's "hub" group, made (with the tab in it) when there is none. */
  put(tab: chrome.tabs.Tab): Promise<void>;
  /** A group was made, renamed or removed (`gone`). */
  note(group: chrome.tabGroups.TabGroup, gone?: boolean): void;
  /** Finds the existing "hub" groups; never rejects. */
  load(): Promise<void>;
}

function createHubGroups(api: GroupChrome): HubGroups {
  /** Every group titled "hub", by id → its window. */
  const ids = new Map<number, number>();
  const note = (group: chrome.tabGroups.TabGroup, gone = false) => {
    if (!gone && group.title === AGENT_GROUP_TITLE) ids.set(group.id, group.windowId);
    else ids.delete(group.id);
  };
  return {
    has: (groupId) => ids.has(groupId),
    async check(groupId) {
      if (groupId === NO_GROUP) return false;
      const group = await api.tabGroups.get(groupId).catch(() => undefined);
      if (!group) ids.delete(groupId);
      else note(group);
      return ids.has(groupId);
    },
    async put(tab) {
      const tabIds = tab.id!;
      const inWindow = await api.tabGroups.query({ windowId: tab.windowId });
      const existing = inWindow.find((group) => group.title === AGENT_GROUP_TITLE);
      if (existing) {
        note(existing);
        await api.tabs.group({ tabIds, groupId: existing.id });
        return;
      }
      const groupId = await api.tabs.group({
        tabIds,
        createProperties: { windowId: tab.windowId },
      });
      const title = { title: AGENT_GROUP_TITLE, color: AGENT_GROUP_COLOR } as const;
      await api.tabGroups.update(groupId, title);
      note({ id: groupId, windowId: tab.windowId, ...title } as chrome.tabGroups.TabGroup);
    },
    note,
    async load() {
      const groups = await api.tabGroups.query({}).catch(() => []);
      for (const group of groups) note(group);
    },
  };
}

/** Registers the Chromium listeners: tabs' group changes, tabs closed, groups renamed or gone. */
function listen(api: GroupChrome, { memory, groups }: Parts): void {
  api.tabGroups.onCreated.addListener((group) => groups.note(group));
  api.tabGroups.onUpdated.addListener((group) => groups.note(group));
  api.tabGroups.onRemoved.addListener((group) => groups.note(group, true));
  api.tabs.onUpdated.addListener((tabId, info) => {
    if (info.groupId !== undefined) memory.moved(tabId, groups.has(info.groupId));
  });
  api.tabs.onRemoved.addListener((tabId) => memory.gone(tabId));
  api.tabs.onReplaced.addListener((added, removed) => memory.gone(removed, added));
}
