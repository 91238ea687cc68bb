/**
 * What the side panel shows of Chromium's debugger: the mode the extension follows and the tabs it
 * is attached to now, by title. It reads the debugger sessions (debugger_sessions.ts) through the
 * three members it needs, so the panel never attaches or detaches anything itself.
 */
import type { DebuggerMode } from "../../../protocol/debugger_mode.ts";
import type { DebuggerView } from "../shared/panel_messages.ts";

/** The part of the debugger sessions the panel reads. */
export interface DebuggerFacts {
  mode(): DebuggerMode;
  attachedTabs(): number[];
  /** Fires when `attachedTabs()` or `mode()` changes; returns how to stop listening. */
  onChange(listener: () => void): () => void;
}

/** Longest title or URL the panel gets for an attached tab. */
const MAX_TEXT = 300;

/** The panel's view: each attached tab with its title and URL (a tab closed meanwhile is left out). */
export async function debuggerView(
  facts: DebuggerFacts,
  getTab: (tabId: number) => Promise<{ title?: string; url?: string }> = (id) =>
    chrome.tabs.get(id),
): Promise<DebuggerView> {
  const tabs = await Promise.all(
    facts.attachedTabs().map(async (tabId) => {
      const tab = await getTab(tabId).catch(() => undefined);
      if (!tab) return undefined;
      return {
        tabId,
        title: (tab.title ?? "").slice(0, MAX_TEXT),
        url: (tab.url ?? "").slice(0, MAX_TEXT),
      };
    }),
  );
  return { mode: facts.mode(), attached: tabs.filter((t) => t !== undefined) };
}
