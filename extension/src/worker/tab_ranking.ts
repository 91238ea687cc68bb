/**
 * Which tab a plugin call runs in when the caller gave no `tabId`:
 * the active tab of the focused window first, then other windows' active tabs, then other tabs
 * of the focused window, then the rest; among equals the most recently used, then the lowest id.
 * A call with no open or no ready tab gets the tab verdict the hub's fast fail gives too.
 */
import { type TabRefusal, type TabTarget, tabVerdict } from "../../../protocol/tab_readiness.ts";

export interface RankableTab {
  id?: number;
  windowId: number;
  active: boolean;
  lastAccessed?: number;
}

function tier(tab: RankableTab, focusedWindowId: number | undefined): number {
  const focused = tab.windowId === focusedWindowId;
  if (tab.active && focused) return 0;
  if (tab.active) return 1;
  if (focused) return 2;
  return 3;
}

/** The tabs in preference order (a new array). */
export function rankTabs<T extends RankableTab>(tabs: T[], focusedWindowId?: number): T[] {
  return [...tabs].sort((a, b) =>
    tier(a, focusedWindowId) - tier(b, focusedWindowId) ||
    (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0) ||
    (a.id ?? 0) - (b.id ?? 0)
  );
}

/**
 * The tab a call with no `tabId` runs in: the best ready one of `tabs` (the plugin's, of the
 * call's instance), or the refusal of `tabVerdict` (protocol/tab_readiness.ts) when none is.
 */
export function chooseTab<T extends RankableTab & { url?: string }>(
  target: TabTarget,
  tabs: T[],
  isReady: (tab: T) => boolean,
  focusedWindowId?: number,
): { tab: T } | { refusal: TabRefusal } {
  const ready = tabs.filter(isReady);
  const refusal = tabVerdict(
    target,
    tabs.map((t) => ({ url: t.url ?? "", ready: ready.includes(t) })),
  );
  return refusal ? { refusal } : { tab: rankTabs(ready, focusedWindowId)[0] };
}
