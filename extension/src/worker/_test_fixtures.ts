/// <reference lib="deno.ns" />
/**
 * Fixtures for the extension's unit tests: a `SyncPlugin` as the hub sends it, a fake `chrome`, a
 * fake `chrome.storage.session`, a method context with fresh stores.
 */
import { HubError } from "../../../protocol/errors.ts";
import type { SyncPlugin } from "../../../protocol/events.ts";
import type { MethodContext } from "./browser_methods/browser_method.ts";
import { createRefFrames, type TableStorage } from "./browser_methods/ref_frames.ts";
import { createSnapshotStore } from "./browser_methods/snapshot_store.ts";
import { createTabCalls } from "./tab_calls.ts";
import { type DialogInfo, dialogOpenError, type DialogWatch } from "./dialogs.ts";
import { createSiteAccess } from "./site_access.ts";
import type { AgentGroup } from "./agent_group.ts";

export function syncPlugin(name: string, fields: Partial<SyncPlugin> = {}): SyncPlugin {
  return {
    name,
    displayName: name,
    version: "1.0.0",
    urlPatterns: ["http://127.0.0.1/*"],
    excludePatterns: [],
    adapterFile: `${name}-abc.js`,
    adapterHash: "abc",
    sdkVersion: "0.1.0",
    settings: {},
    instances: {},
    permission: "auto",
    needsReview: false,
    enabled: true,
    tools: [],
    ...fields,
  };
}

/** Runs `body` with `globalThis.chrome` set to `fake`, then restores what was there. */
export async function withChrome(fake: unknown, body: () => Promise<void>): Promise<void> {
  const had = Object.hasOwn(globalThis, "chrome");
  const previous = Reflect.get(globalThis, "chrome");
  Reflect.set(globalThis, "chrome", fake);
  try {
    await body();
  } finally {
    if (had) Reflect.set(globalThis, "chrome", previous);
    else Reflect.deleteProperty(globalThis, "chrome");
  }
}

/** A fake `chrome.tabs.get` that knows the tabs in `open`. */
export function withTabs(open: Set<number>, body: () => Promise<void>): Promise<void> {
  return withChrome({
    tabs: {
      get: (tabId: number) =>
        open.has(tabId)
          ? Promise.resolve({ id: tabId })
          : Promise.reject(new Error(`No tab with id: ${tabId}.`)),
    },
  }, body);
}

/** The HubError a promise rejected with (fails if it resolved or threw something else). */
export async function failureOf(promise: Promise<unknown>): Promise<HubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HubError) return error;
    throw new Error(`expected a HubError, got ${error}`);
  }
  throw new Error("expected the call to fail");
}

/** What a fake `chrome.debugger` recorded: the commands sent, and whether it is attached. */
export interface FakeDebugger {
  commands: string[];
  attached: boolean;
}

type DebuggerListener = (source: unknown, method: string, params: unknown) => void;

/**
 * A fake `chrome.debugger` for one page: attached/detached state, `Page.getFrameTree` answering
 * `mainFrame`, `Runtime.enable` replaying `events` to the listeners (as V8 replays stored console
 * messages), and every other command answered by `answer` (`{}` when it returns undefined).
 * `emit` sends an event to the listeners, as the page would.
 */
export function fakeDebugger<F extends FakeDebugger>(
  fake: F,
  mainFrame: string,
  events: [string, unknown][],
  answer: (
    method: string,
    params: Record<string, unknown> | undefined,
    emit: (method: string, params: unknown) => void,
  ) => Promise<unknown> | undefined,
) {
  const listeners = new Set<DebuggerListener>();
  return {
    attach: () => Promise.resolve(void (fake.attached = true)),
    detach: () => Promise.resolve(void (fake.attached = false)),
    onEvent: {
      addListener: (l: DebuggerListener) => listeners.add(l),
      removeListener: (l: DebuggerListener) => listeners.delete(l),
    },
    onDetach: { addListener: () => {}, removeListener: () => {} },
    sendCommand: (target: unknown, method: string, params?: Record<string, unknown>) => {
      if (!fake.attached) throw new Error(`${method} while detached`);
      fake.commands.push(method);
      const emit = (name: string, p: unknown) => {
        for (const l of listeners) l(target, name, p);
      };
      if (method === "Page.getFrameTree") {
        return Promise.resolve({ frameTree: { frame: { id: mainFrame } } });
      }
      if (method === "Runtime.enable") { for (const [name, p] of events) emit(name, p); }
      return answer(method, params, emit) ?? Promise.resolve({});
    },
  };
}

/** A fake chrome.storage area (session or local): values cross as JSON, as they do in Chromium. */
export function fakeStorageArea() {
  const data = new Map<string, unknown>();
  let writes = 0;
  const storage: TableStorage = {
    get: ((key: string) =>
      Promise.resolve(
        data.has(key) ? { [key]: JSON.parse(JSON.stringify(data.get(key))) } : {},
      )) as TableStorage["get"],
    set: ((items: Record<string, unknown>) => {
      writes++;
      for (const [key, value] of Object.entries(items)) {
        data.set(key, JSON.parse(JSON.stringify(value)));
      }
      return Promise.resolve();
    }) as TableStorage["set"],
    remove: ((key: string) => {
      data.delete(key);
      return Promise.resolve();
    }) as TableStorage["remove"],
  };
  return { storage, data, writes: () => writes };
}

/**
 * A method context for unit tests: fresh tab calls, a fresh frame table (over its own fake session
 * storage) and a fresh snapshot store (numbered from 1), dialogs that never open (an action's race
 * is its own value) and no downloads, every site `auto` with no grants, an agent group that holds
 * every tab and groups none, site uses that are not kept, and `fields` over them. The parts a test
 * does not give (debugger, log, state, reload) are absent.
 */
export function fakeMethodContext(fields: Partial<MethodContext> = {}): MethodContext {
  const { storage } = fakeStorageArea();
  const noDialogs = {
    race: async <T>(_tabId: number, action: Promise<T>) => ({ value: await action }),
  } as unknown as MethodContext["dialogs"];
  const noDownloads = {
    createdSince: () => Promise.resolve(undefined),
  } as unknown as MethodContext["downloads"];
  const sites = createSiteAccess();
  sites.update({ defaultSitePermission: "auto" });
  return {
    calls: createTabCalls(),
    sites,
    siteGrants: [],
    agentGroup: fakeAgentGroup(),
    siteUses: { record() {}, all: () => Promise.resolve({}) },
    refFrames: createRefFrames(() => storage),
    snapshots: createSnapshotStore(1),
    dialogs: noDialogs,
    downloads: noDownloads,
    ...fields,
  } as MethodContext;
}

/**
 * An agent group for unit tests: `members` are in it (every tab when not given); `joinedTabs` and
 * `openedTabs` record the tabs the gate joined and the tabs it opened.
 */
export function fakeAgentGroup(members?: Set<number>) {
  const joinedTabs: number[] = [];
  const openedTabs: number[] = [];
  const group: AgentGroup & { joinedTabs: number[]; openedTabs: number[] } = {
    joinedTabs,
    openedTabs,
    join: (tabId) => Promise.resolve(void joinedTabs.push(tabId)),
    opened: (tabId) => Promise.resolve(void openedTabs.push(tabId)),
    has: (tabId) => Promise.resolve(!members || members.has(tabId)),
    isMember: (tab) => !members || members.has(tab.id ?? -1),
  };
  return group;
}

/**
 * A dialog watch whose dialogs the test opens with `show`: `open`, `any`, `listen` and
 * `assertNone` (DIALOG_OPEN for a tab with a dialog shown) as the worker's; `race` and `handle`
 * are the test's to set.
 */
export function fakeDialogs() {
  const open = new Map<number, DialogInfo>();
  const listeners = new Set<(tabId: number, dialog: DialogInfo | null) => void>();
  const watch = {
    open: (tabId: number) => open.get(tabId) ?? null,
    any: () => open.size > 0,
    listen(listener: (tabId: number, dialog: DialogInfo | null) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    assertNone(tabId: number) {
      const dialog = open.get(tabId);
      if (dialog) throw dialogOpenError(tabId, dialog);
    },
  } as unknown as DialogWatch;
  return {
    watch,
    show(tabId: number, dialog: DialogInfo) {
      open.set(tabId, dialog);
      for (const l of [...listeners]) l(tabId, dialog);
    },
  };
}
