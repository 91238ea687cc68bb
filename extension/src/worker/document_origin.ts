/**
 * The URL a site rule decides a document by (docs/decisions/072-site-permissions.md). A document
 * whose URL has no site of its own (about:blank, about:srcdoc, data:, blob:, a popup an off site
 * wrote into) still runs in a real origin: the one it was made by. Its URL alone would let an off
 * site's own pages through as "no site", so such a document is decided by the origin it reports
 * (one `chrome.scripting.executeScript` in it, isolated world, reading `origin`).
 *
 * An opaque origin ("null": a sandboxed frame, a data: URL typed by a person) or a document that
 * cannot be scripted (chrome://, the Web Store, one that is gone) has no site, as before. A
 * document that does not answer within ORIGIN_READ_MS (busy in a script, or frozen by a dialog an
 * off site opened) fails closed: `originUnknownError`, SITE_NOT_ALLOWED, so it is never taken for
 * a page without a site; whole-tab reads keep such a frame out instead (frame_sites.ts).
 */
import { type HubError, hubError } from "../../../protocol/errors.ts";
import { clip } from "../../../protocol/clip.ts";
import { siteOf } from "../../../protocol/site_permissions.ts";

/** How long the origin read may take before the call is refused (the site cannot be told). */
const ORIGIN_READ_MS = 2000;

/** The refusal of a document whose origin could not be read in time. */
function originUnknownError(url: string | undefined): HubError {
  return hubError(
    "SITE_NOT_ALLOWED",
    `hub could not tell which site the page ${JSON.stringify(clip(url ?? "", 200))} belongs to: ` +
      `it did not answer within ${ORIGIN_READ_MS / 1000} s (busy in a script, or a dialog is ` +
      "open), so hub did nothing in it. Try again once the page answers.",
    { url: clip(url ?? "", 300) },
  );
}

const LATE = Symbol("late");

/** Which document: the tab's top one, a frame by id, or a document by id. */
export interface DocumentAt {
  tabId: number;
  frameId?: number;
  documentId?: string;
}

/**
 * Whether a document at `url` may run in an origin its URL does not show: about:blank,
 * about:srcdoc, data: (and a blob: or filesystem: URL whose inner origin is opaque). An empty URL
 * (a tab that has committed no document yet: its `pendingUrl` is checked instead) and anything
 * else (chrome://, an error page) has no document hub could act in, so nothing is read.
 */
function inheritsOrigin(url: string | undefined): boolean {
  return url !== undefined && /^(about|data|blob|filesystem):/i.test(url);
}

/** Reads a document's `origin` (may throw; tests pass a fake). */
export type OriginReader = (at: DocumentAt) => Promise<string | undefined>;

/** `url` itself when it has a site; else the document's real origin when that has one. */
export async function documentSiteUrl(
  url: string | undefined,
  at: DocumentAt,
  read: OriginReader = readOrigin,
  timeoutMs = ORIGIN_READ_MS,
): Promise<string | undefined> {
  if (siteOf(url) !== undefined || !inheritsOrigin(url)) return url;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), timeoutMs);
  });
  try {
    const origin = await Promise.race([read(at).catch(() => undefined), late]);
    if (origin === LATE) throw originUnknownError(url);
    return origin !== undefined && siteOf(origin) !== undefined ? origin : undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The document's `origin`, read in its isolated world. */
export async function readOrigin(at: DocumentAt): Promise<string | undefined> {
  const target: chrome.scripting.InjectionTarget = at.documentId !== undefined
    ? { tabId: at.tabId, documentIds: [at.documentId] }
    : { tabId: at.tabId, frameIds: [at.frameId ?? 0] };
  const [answer] = await chrome.scripting.executeScript({
    target,
    world: "ISOLATED",
    injectImmediately: true,
    func: () => self.origin,
  });
  const origin = answer?.result;
  return typeof origin === "string" && origin !== "null" ? origin : undefined;
}
