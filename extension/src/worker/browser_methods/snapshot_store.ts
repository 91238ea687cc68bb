/**
 * The last few snapshots of each tab, for browser_snapshot's `since`: their ids (`s<n>`), the top
 * document they outline and their full text. Kept in the worker's memory only: a restarted worker
 * has none, and `since` then asks for a full snapshot. Pure (no chrome).
 */
import { SNAPSHOTS_KEPT } from "../../../../protocol/browser_methods/dom_limits.ts";
import { hubError } from "../../../../protocol/errors.ts";

export interface StoredSnapshot {
  id: string;
  topDocumentId: string;
  text: string;
}

export interface SnapshotStore {
  /** Keeps `text` as the tab's newest snapshot (dropping the oldest past `kept`); its id. */
  keep(tabId: number, topDocumentId: string, text: string): string;
  /**
   * The text of snapshot `id` of the tab, which must outline `topDocumentId`; otherwise
   * REF_STALE, telling to take a full snapshot.
   */
  textOf(tabId: number, id: string, topDocumentId: string): string;
  forgetTab(tabId: number): void;
}

/**
 * A store numbering snapshots from `first` (one counter for all tabs, so an id names one
 * snapshot), keeping `kept` per tab.
 */
export function createSnapshotStore(first = 1, kept = SNAPSHOTS_KEPT): SnapshotStore {
  const tabs = new Map<number, StoredSnapshot[]>();
  let next = first;
  return {
    keep(tabId, topDocumentId, text) {
      const id = `s${next++}`;
      const list = [...(tabs.get(tabId) ?? []), { id, topDocumentId, text }];
      tabs.set(tabId, list.slice(-kept));
      return id;
    },
    textOf(tabId, id, topDocumentId) {
      const found = tabs.get(tabId)?.find((s) => s.id === id);
      if (!found) throw staleSnapshot(id, "is not one of this tab's last snapshots");
      if (found.topDocumentId !== topDocumentId) {
        throw staleSnapshot(id, "outlined another page: the tab has navigated since");
      }
      return found.text;
    },
    forgetTab(tabId) {
      tabs.delete(tabId);
    },
  };
}

function staleSnapshot(id: string, why: string) {
  return hubError(
    "REF_STALE",
    `Snapshot "${id.slice(0, 40)}" ${why} (the extension keeps the last ${SNAPSHOTS_KEPT} per ` +
      "tab, until it restarts). Take a full browser_snapshot without since.",
  );
}
