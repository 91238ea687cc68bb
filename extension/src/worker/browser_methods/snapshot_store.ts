/**
 * The last few snapshots of each tab, for browser_snapshot's `since`: their ids (`s<n>`), the top
 * document they outline and their full text. Kept in the worker's memory only: a restarted worker
 * has none, and `since` then asks for a full snapshot. Pure (no chrome).
 */
import {
  SNAPSHOT_ID_MAX_CHARS,
  SNAPSHOTS_KEPT,
} from "../../../../protocol/browser_methods/dom_limits.ts";
import { hubError } from "../../../../protocol/errors.ts";

export interface StoredSnapshot {
  id: string;
  topDocumentId: string;
  /** The full outline. */
  text: string;
  /** What the call asked for (its parameters but the paging ones), to page its answer. */
  key?: string;
  /** The call's answer before it was cut (the outline, or the changes with `since`). */
  answer?: string;
  /** The answer's title and URL. */
  head?: { title: string; url: string };
}

export interface SnapshotStore {
  /** Keeps `text` as the tab's newest snapshot (dropping the oldest past `kept`); its id. */
  keep(
    tabId: number,
    topDocumentId: string,
    text: string,
    paging?: Pick<StoredSnapshot, "key" | "answer" | "head">,
  ): string;
  /**
   * The tab's newest snapshot taken with `key` of document `topDocumentId`, so a call with an
   * `offset` goes on cutting the same answer.
   */
  latest(tabId: number, key: string, topDocumentId: string): StoredSnapshot | undefined;
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
    keep(tabId, topDocumentId, text, paging) {
      const id = `s${next++}`;
      const list = [...(tabs.get(tabId) ?? []), { id, topDocumentId, text, ...paging }];
      tabs.set(tabId, list.slice(-kept));
      return id;
    },
    latest(tabId, key, topDocumentId) {
      const list = tabs.get(tabId) ?? [];
      const found = list.findLast((s) => s.key === key);
      return found?.topDocumentId === topDocumentId ? found : undefined;
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
    `Snapshot "${id.slice(0, SNAPSHOT_ID_MAX_CHARS)}" ${why} (the extension keeps the last ` +
      `${SNAPSHOTS_KEPT} per tab, until it restarts). Take a full browser_snapshot without since.`,
  );
}
