/**
 * The browser's downloads as hub sees them (`chrome.downloads`, no debugger): the list
 * browser_list_downloads answers, and the download an acting tool reports when its action started
 * one (`createdSince`). Which tab started a download is not in Chromium's download item: hub
 * knows it only for downloads its own actions started (the action wrapper passes its tab), and
 * remembers that for the worker's life.
 */
import {
  DOWNLOAD_URL_CHARS,
  type DownloadEntry,
  type DownloadReport,
  type DownloadState,
} from "../../../protocol/browser_methods/downloads.ts";
import { clip } from "../../../protocol/clip.ts";

export type { DownloadReport } from "../../../protocol/browser_methods/downloads.ts";

export interface Downloads {
  /** Registers the chrome.downloads listeners; call synchronously at the top of background.ts. */
  listen(): void;
  /**
   * The first download created since `sinceMs` (epoch ms), waiting up to `waitMs` for one to
   * start. A found download is given a short while more (at most SETTLE_MS) for the browser to
   * name its file and, for a small file, to finish, so the report says what happened. With
   * `tabId`, the download is remembered as that tab's.
   */
  createdSince(
    sinceMs: number,
    waitMs: number,
    tabId?: number,
  ): Promise<DownloadReport | undefined>;
  /** The downloads newest first, as browser_list_downloads answers them. */
  list(filter: { state?: DownloadState; limit: number }): Promise<DownloadEntry[]>;
}

/** How long a found download is watched for its file name and its end, at most. */
export const SETTLE_MS = 1000;
/** How many download → tab pairs are remembered. */
const MAX_TABS_KNOWN = 500;

type Item = chrome.downloads.DownloadItem;

export function createDownloads(): Downloads {
  /** Download id → the tab whose action started it. */
  const tabOf = new Map<number, number>();
  /** Woken on every download event: waiters then look again. */
  let wake: () => void = () => {};
  let woken = new Promise<void>((resolve) => (wake = resolve));
  const changed = () => {
    const done = wake;
    woken = new Promise<void>((resolve) => (wake = resolve));
    done();
  };

  /** Resolves when `event` does (a download event) or after `ms`, whichever comes first. */
  const eventOr = (event: Promise<void>, ms: number) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      event,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))),
    ]).finally(() => clearTimeout(timer));
  };

  const remember = (id: number, tabId: number) => {
    tabOf.delete(id);
    tabOf.set(id, tabId);
    if (tabOf.size > MAX_TABS_KNOWN) tabOf.delete(tabOf.keys().next().value!);
  };

  /** The first download that started at or after `sinceMs`, if any. */
  const firstSince = async (sinceMs: number): Promise<Item | undefined> => {
    const items = await chrome.downloads.search({
      startedAfter: new Date(sinceMs - 1).toISOString(),
      orderBy: ["startTime"],
      limit: 1,
    });
    return items[0];
  };

  const byId = async (id: number): Promise<Item | undefined> =>
    (await chrome.downloads.search({ id }))[0];

  return {
    listen() {
      chrome.downloads.onCreated.addListener(changed);
      chrome.downloads.onChanged.addListener(changed);
    },

    async createdSince(sinceMs, waitMs, tabId) {
      const deadline = Date.now() + waitMs;
      let item: Item | undefined;
      for (;;) {
        const event = woken;
        item = await firstSince(sinceMs);
        if (item) break;
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        await eventOr(event, left);
      }
      if (tabId !== undefined) remember(item.id, tabId);
      const settleBy = Date.now() + SETTLE_MS;
      for (;;) {
        const event = woken;
        item = (await byId(item.id)) ?? item;
        const left = settleBy - Date.now();
        if (settled(item) || left <= 0) break;
        await eventOr(event, left);
      }
      return report(item);
    },

    async list({ state, limit }) {
      const items = await chrome.downloads.search({
        orderBy: ["-startTime"],
        limit,
        ...(state ? { state } : {}),
      });
      return items.map((item) => entry(item, tabOf.get(item.id)));
    },
  };
}

/** Named and no longer running. */
function settled(item: Item): boolean {
  return item.filename !== "" && item.state !== "in_progress";
}

/** The last part of a path (either slash, so Windows paths work too). */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? "";
}

function report(item: Item): DownloadReport {
  return {
    filename: baseName(item.filename),
    url: clip(item.url, DOWNLOAD_URL_CHARS),
    state: item.state as DownloadState,
    bytes: item.bytesReceived,
  };
}

/** One download item as browser_list_downloads describes it. */
export function entry(item: Item, tabId?: number): DownloadEntry {
  return {
    id: item.id,
    url: clip(item.url, DOWNLOAD_URL_CHARS),
    filename: baseName(item.filename),
    path: item.filename,
    bytesReceived: item.bytesReceived,
    totalBytes: item.totalBytes >= 0 ? item.totalBytes : null,
    state: item.state as DownloadState,
    ...(item.state === "interrupted" && item.error ? { error: item.error } : {}),
    startedAt: item.startTime,
    ...(tabId !== undefined ? { tabId } : {}),
  };
}
