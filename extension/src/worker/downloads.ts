/**
 * The browser's downloads as hub sees them (`chrome.downloads`, no debugger): the list
 * browser_list_downloads answers, and the download an acting tool reports when its action started
 * one (`createdSince`). Which tab started a download is not in Chromium's download item: hub
 * knows it only for downloads its own actions started (the action wrapper passes its tab), and
 * remembers that for the worker's life.
 *
 * A download that starts while an action runs may come from elsewhere (another tab's timer, the
 * person), so an action is credited only with one that plausibly came from its tab: its referrer,
 * URL or final URL has the origin of the tab's page or one of its frames, or the network log saw
 * the tab request its URL. Any other is listed without a tabId and never reported.
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
   * `tabId`, only a download that plausibly came from that tab counts (`fromTab`), and it is
   * remembered as that tab's. Without waiting (`waitMs` 0), once `listen` runs, it looks nothing
   * up when the worker heard of no download created since `sinceMs` (most actions).
   */
  createdSince(
    sinceMs: number,
    waitMs: number,
    tabId?: number,
  ): Promise<DownloadReport | undefined>;
  /** The downloads newest first, as browser_list_downloads answers them. */
  list(filter: { state?: DownloadState; limit: number }): Promise<DownloadEntry[]>;
}

/** What tells whether a download came from a tab (createDownloads). */
export interface DownloadSources {
  /** The URLs of the tab's page and its frames now. */
  tabUrls?(tabId: number): Promise<string[]>;
  /** Whether the network log saw the tab request `url`. */
  requested?(tabId: number, url: string): boolean;
}

/** How long a found download is watched for its file name and its end, at most. */
export const SETTLE_MS = 1000;
/** How many download → tab pairs are remembered. */
const MAX_TABS_KNOWN = 500;
/** How many downloads started since an action began are looked at for one from its tab. */
const MAX_CANDIDATES = 20;

type Item = chrome.downloads.DownloadItem;

export function createDownloads(sources: DownloadSources = {}): Downloads {
  const tabUrls = sources.tabUrls ?? framesOf;
  const requested = sources.requested ?? (() => false);
  /** Download id → the tab whose action started it. */
  const tabOf = new Map<number, number>();
  /** When the worker last heard of a new download (epoch ms); undefined until `listen`. */
  let lastCreatedAt: number | undefined;
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

  /**
   * The first download that started at or after `sinceMs` (with `tabId`: the first that plausibly
   * came from that tab), if any.
   */
  const firstSince = async (sinceMs: number, tabId?: number): Promise<Item | undefined> => {
    const items = await chrome.downloads.search({
      startedAfter: new Date(sinceMs - 1).toISOString(),
      orderBy: ["startTime"],
      limit: tabId === undefined ? 1 : MAX_CANDIDATES,
    });
    if (tabId === undefined || items.length === 0) return items[0];
    const origins = new Set(
      (await tabUrls(tabId).catch(() => [] as string[])).map(originOf).filter((o) => o),
    );
    return items.find((item) => fromTab(item, tabId, origins));
  };

  /** Whether `item` plausibly came from the tab whose page and frames have `origins`. */
  const fromTab = (item: Item, tabId: number, origins: ReadonlySet<string | undefined>) => {
    const urls = [item.url, item.finalUrl].filter((url): url is string => !!url);
    return [item.referrer, ...urls].some((url) => url && origins.has(originOf(url))) ||
      urls.some((url) => requested(tabId, url));
  };

  const byId = async (id: number): Promise<Item | undefined> =>
    (await chrome.downloads.search({ id }))[0];

  return {
    listen() {
      lastCreatedAt = 0;
      chrome.downloads.onCreated.addListener(() => {
        lastCreatedAt = Date.now();
        changed();
      });
      chrome.downloads.onChanged.addListener(changed);
    },

    async createdSince(sinceMs, waitMs, tabId) {
      // Chromium tells the worker of each download it creates: none since the action began and
      // none to wait for spares chrome.downloads.search on every action.
      if (waitMs <= 0 && lastCreatedAt !== undefined && lastCreatedAt < sinceMs) return undefined;
      const deadline = Date.now() + waitMs;
      let item: Item | undefined;
      for (;;) {
        const event = woken;
        item = await firstSince(sinceMs, tabId);
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

/** The URLs of a tab's frames (its page first), through chrome.webNavigation, else its URL. */
async function framesOf(tabId: number): Promise<string[]> {
  const frames = await Promise.resolve()
    .then(() => chrome.webNavigation.getAllFrames({ tabId }))
    .catch(() => null);
  if (frames?.length) return frames.map((frame) => frame.url);
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  return tab?.url ? [tab.url] : [];
}

/** A URL's origin (a blob: URL's is its creator's); undefined for an opaque one (data:, about:). */
function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
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
