/**
 * Which tab a plugin call runs in when the caller gave no `tabId`:
 * the active tab of the focused window first, then other windows' active tabs, then other tabs
 * of the focused window, then the rest; among equals the most recently used, then the lowest id.
 */

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
