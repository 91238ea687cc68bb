/// <reference lib="deno.ns" />
/**
 * Test fixture: a fake `chrome` with the tab and webNavigation events tab_load.ts and
 * action_navigation.ts listen to, and one tab whose fields a test sets (`fake.tab`; undefined:
 * the tab is gone).
 */

// deno-lint-ignore no-explicit-any
type Listener = (...args: any[]) => void;

export function fakeEvent() {
  const listeners = new Set<Listener>();
  return {
    addListener: (l: Listener) => listeners.add(l),
    removeListener: (l: Listener) => listeners.delete(l),
    emit: (...args: unknown[]) => [...listeners].forEach((l) => l(...args)),
    count: () => listeners.size,
  };
}

export function fakeTabChrome(tab: Record<string, unknown> | undefined) {
  const chrome = {
    tab,
    tabs: {
      onUpdated: fakeEvent(),
      onRemoved: fakeEvent(),
      onCreated: fakeEvent(),
      get: (id: number) =>
        chrome.tab && chrome.tab.id === id
          ? Promise.resolve(chrome.tab)
          : Promise.reject(new Error(`No tab with id: ${id}.`)),
    },
    webNavigation: {
      onBeforeNavigate: fakeEvent(),
      onCommitted: fakeEvent(),
      onCompleted: fakeEvent(),
      onHistoryStateUpdated: fakeEvent(),
      onReferenceFragmentUpdated: fakeEvent(),
      onErrorOccurred: fakeEvent(),
      onCreatedNavigationTarget: fakeEvent(),
    },
  };
  return chrome;
}

export type FakeTabChrome = ReturnType<typeof fakeTabChrome>;

/** Listeners still attached (0 once every watch has ended). */
export function listenerCount(fake: FakeTabChrome): number {
  const tabs = [fake.tabs.onUpdated, fake.tabs.onRemoved, fake.tabs.onCreated];
  return [...tabs, ...Object.values(fake.webNavigation)]
    .reduce((n, e) => n + e.count(), 0);
}
