/**
 * The tab's frame table for refs (docs/decisions/063-refs-across-frames.md): which document each
 * ref prefix names. `k = 0` is the tab's current top document (`e<n>` refs); `k ≥ 1` one document
 * of a child frame (`f<k>e<n>`), handed out once and never reused in the tab's life, so a frame
 * that navigates gets a new `k` and the old refs go stale. A new top document replaces the `k = 0`
 * entry and numbers its refs from above every number an earlier top document handed out (`base`:
 * the tab's `topFloor`, which every kit answer from a top document raises, even one that comes
 * back after a newer top document took `k = 0`), so an old `e5` can never name an element of a
 * later page: the kit refuses a number below its base or a token it does not hold.
 *
 * Kept in memory and in `chrome.storage.session` (key `refFrames:<tabId>`), so a restarted service
 * worker still resolves the refs it handed out; at most FRAME_DOCS_PER_TAB documents per tab (the
 * oldest frame documents are dropped, and their refs go stale); dropped when the tab closes. The
 * changes to one tab's table run one after another.
 */
import { FRAME_DOCS_PER_TAB } from "../../../../protocol/browser_methods/dom_limits.ts";
import { refPrefix } from "../../../../protocol/browser_methods/refs.ts";
import type { RefScheme } from "../../page/dom_refs.ts";
import type { KitDoc } from "../../page/dom_kit_types.ts";
import { createKeyedQueue } from "../keyed_queue.ts";

/** One document of a tab that hands out refs. */
export interface FrameDocEntry {
  /** 0: the tab's top document; ≥ 1: a child frame's document. */
  k: number;
  frameId: number;
  documentId: string;
  /** The kit's registry token there, once a call answered from it. */
  token?: string;
  /** The first element number this document's kit hands out. */
  base: number;
  /** The highest element number it handed out so far (base − 1 before any). */
  upTo: number;
  /** The ref of the `<iframe>` that holds this document, in its parent (`e7`, `f2e3`). */
  owner?: string;
}

/** A tab's table as stored. */
interface TabTable {
  /** The next `k` for a child frame's document. */
  next: number;
  /**
   * The highest element number any top document of the tab handed out (only grows); a new top
   * document numbers from above it. Absent in a table an older version stored.
   */
  topFloor?: number;
  entries: FrameDocEntry[];
}

const KEY_PREFIX = "refFrames:";

const keyOf = (tabId: number) => `${KEY_PREFIX}${tabId}`;

/** The storage the table lives in: chrome.storage.session in the extension, a fake in tests. */
export type TableStorage = Pick<chrome.storage.StorageArea, "get" | "set" | "remove">;

export interface RefFrames {
  /**
   * The `k` of document `documentId` in frame `frameId` of tab `tabId` and the scheme its refs
   * are written by; a document the table does not know gets its `k` now (frame 0: it becomes
   * the tab's top document, k = 0).
   */
  schemeFor(
    tabId: number,
    frameId: number,
    documentId: string,
  ): Promise<{ k: number; scheme: RefScheme }>;
  /**
   * After a kit answer from document `k`: its registry's token and highest number. With
   * `documentId`, only when `k` still names that document (a new top document may have taken
   * k = 0 meanwhile); answers whether it does. Any answer from a top document (k = 0) raises
   * the tab's `topFloor`.
   */
  recordDoc(tabId: number, k: number, doc: KitDoc, documentId?: string): Promise<boolean>;
  /** Document `k` of the tab, or undefined when the table does not hold it (any more). */
  docOf(tabId: number, k: number): Promise<FrameDocEntry | undefined>;
  /** The ref of the `<iframe>` holding document `k`, in its parent document. */
  setOwner(tabId: number, k: number, ownerRef: string): Promise<void>;
  /** The tab closed: its table goes. */
  forgetTab(tabId: number): Promise<void>;
}

/** A frame table over `storage` (by default `chrome.storage.session`, looked up at each use). */
export function createRefFrames(
  storage: () => TableStorage = () => chrome.storage.session,
): RefFrames {
  const tables = createTableCache(storage);
  const queue = createKeyedQueue<number>();

  /** Runs `work` on the tab's table after the work queued before it. */
  const queued = <T>(tabId: number, work: (table: TabTable) => T | Promise<T>): Promise<T> =>
    queue.run(tabId, async () => work(await tables.load(tabId)));
  const save = tables.save;

  return {
    schemeFor(tabId, frameId, documentId) {
      return queued(tabId, async (table) => {
        let entry = table.entries.find((e) => e.documentId === documentId);
        if (!entry) {
          entry = frameId === 0 ? newTop(table, documentId) : newFrame(table, frameId, documentId);
          await save(tabId, table);
        }
        return { k: entry.k, scheme: { prefix: refPrefix(entry.k), base: entry.base } };
      });
    },
    recordDoc(tabId, k, { token, upTo }, documentId) {
      return queued(tabId, async (table) => {
        const floorRaised = k === 0 && Number.isSafeInteger(upTo) && upTo > (table.topFloor ?? 0);
        if (floorRaised) table.topFloor = upTo;
        const entry = table.entries.find((e) => e.k === k);
        const current = !!entry && (documentId === undefined || entry.documentId === documentId);
        const highest = Number.isSafeInteger(upTo) ? Math.max(entry?.upTo ?? 0, upTo) : undefined;
        const changed = current &&
          (entry.token !== token || entry.upTo !== (highest ?? entry.upTo));
        if (changed) {
          entry.token = token;
          entry.upTo = highest ?? entry.upTo;
        }
        if (changed || floorRaised) await save(tabId, table);
        return current;
      });
    },
    docOf(tabId, k) {
      return queued(tabId, (table) => {
        const entry = table.entries.find((e) => e.k === k);
        return entry && { ...entry };
      });
    },
    setOwner(tabId, k, ownerRef) {
      return queued(tabId, async (table) => {
        const entry = table.entries.find((e) => e.k === k);
        if (!entry || entry.owner === ownerRef) return;
        entry.owner = ownerRef;
        await save(tabId, table);
      });
    },
    forgetTab(tabId) {
      return queued(tabId, () => tables.forget(tabId));
    },
  };
}

/**
 * The tabs' tables in memory, read from `storage` on first use and written back after a change
 * (a table that cannot be written stays in memory).
 */
function createTableCache(storage: () => TableStorage) {
  const tables = new Map<number, TabTable>();
  return {
    async load(tabId: number): Promise<TabTable> {
      const known = tables.get(tabId);
      if (known) return known;
      const key = keyOf(tabId);
      const read = Promise.resolve().then(() => storage().get(key));
      const stored: Record<string, unknown> = await read.catch(() => ({}));
      const table = validTable(stored[key]) ?? { next: 1, entries: [] };
      tables.set(tabId, table);
      return table;
    },
    async save(tabId: number, table: TabTable) {
      await Promise.resolve().then(() => storage().set({ [keyOf(tabId)]: table })).catch((error) =>
        console.warn("hub: cannot keep the ref frame table", error)
      );
    },
    async forget(tabId: number) {
      tables.delete(tabId);
      await Promise.resolve().then(() => storage().remove(keyOf(tabId))).catch(() => {});
    },
  };
}

/**
 * The tab's new top document: it takes k = 0 from the old one and numbers its refs from above
 * every number a top document handed out so far (the old one's, and `topFloor`).
 */
function newTop(table: TabTable, documentId: string): FrameDocEntry {
  const old = table.entries.find((e) => e.k === 0);
  table.topFloor = Math.max(table.topFloor ?? 0, old?.upTo ?? 0);
  const base = table.topFloor + 1;
  const entry: FrameDocEntry = { k: 0, frameId: 0, documentId, base, upTo: base - 1 };
  table.entries = [entry, ...table.entries.filter((e) => e.k !== 0)];
  return entry;
}

/** A child frame's document: the next k, numbered from 1; the oldest frame documents go. */
function newFrame(table: TabTable, frameId: number, documentId: string): FrameDocEntry {
  const entry: FrameDocEntry = { k: table.next++, frameId, documentId, base: 1, upTo: 0 };
  table.entries.push(entry);
  const frames = table.entries.filter((e) => e.k !== 0);
  const over = table.entries.length - FRAME_DOCS_PER_TAB;
  if (over > 0) {
    const dropped = new Set(frames.slice(0, over).map((e) => e.k));
    table.entries = table.entries.filter((e) => !dropped.has(e.k));
  }
  return entry;
}

/** A stored table, or undefined when it is not one (another version wrote it, or nothing). */
function validTable(value: unknown): TabTable | undefined {
  const table = value as Partial<TabTable> | undefined;
  if (!table || !Number.isSafeInteger(table.next) || !Array.isArray(table.entries)) return;
  const entries = table.entries.filter((e): e is FrameDocEntry =>
    typeof e === "object" && e !== null && Number.isSafeInteger(e.k) &&
    typeof e.documentId === "string" && Number.isSafeInteger(e.base) &&
    Number.isSafeInteger(e.upTo) && Number.isSafeInteger(e.frameId)
  );
  const floor = Number.isSafeInteger(table.topFloor) ? { topFloor: table.topFloor } : {};
  return { next: table.next!, entries, ...floor };
}
