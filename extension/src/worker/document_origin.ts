/**
 * The URL a site rule decides a document by (docs/decisions/072-site-permissions.md). A document
 * whose URL has no site of its own (about:blank, about:srcdoc, data:, blob:, a popup an off site
 * wrote into) still runs in a real origin: the one it was made by. Its URL alone would let an off
 * site's own pages through as "no site", so such a document is decided by the origin it reports
 * (one `chrome.scripting.executeScript` in it, isolated world, reading `origin`).
 *
 * An opaque origin ("null": a sandboxed frame, a data: URL typed by a person), a document that
 * cannot be scripted (chrome://, the Web Store, one that is gone) or one that does not answer
 * within ORIGIN_READ_MS has no site, as before.
 */
import { siteOf } from "../../../protocol/site_permissions.ts";

/** How long the origin read may take before the document counts as one with no site. */
export const ORIGIN_READ_MS = 2000;

/** Which document: the tab's top one, a frame by id, or a document by id. */
export interface DocumentAt {
  tabId: number;
  frameId?: number;
  documentId?: string;
}

/** Reads a document's `origin` (may throw; tests pass a fake). */
export type OriginReader = (at: DocumentAt) => Promise<string | undefined>;

/** `url` itself when it has a site; else the document's real origin when that has one. */
export async function documentSiteUrl(
  url: string | undefined,
  at: DocumentAt,
  read: OriginReader = readOrigin,
): Promise<string | undefined> {
  if (siteOf(url) !== undefined) return url;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ORIGIN_READ_MS);
  });
  try {
    const origin = await Promise.race([read(at).catch(() => undefined), late]);
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
