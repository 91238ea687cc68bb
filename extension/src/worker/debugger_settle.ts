/**
 * Waiting for the page's viewport to hold still after a new attach. Chromium shows its "started
 * debugging this browser" bar when an extension attaches, and the bar takes its room from the page
 * just after: a point measured before then (a click's target, a fixed-bottom button, a capture's
 * clip) lands elsewhere once the page resizes. So a new attach is handed out only once the
 * viewport's size stopped changing, bounded. The bar is one for the whole browser: an attach while
 * another tab is attached (and settled) does not wait (debugger_attach.ts).
 *
 * Headless Chromium shows no bar: the size never changes there, and the wait ends SETTLE_QUIET_MS
 * after the attach (it runs beside the session hooks, so it adds less than that).
 */
import type { TabSession } from "./debugger_tab_state.ts";

/** No change this long after the attach: the viewport is taken as steady. */
export const SETTLE_QUIET_MS = 60;
/** After a change, steady once two reads this far apart agree. */
export const SETTLE_EVERY_MS = 40;
/** The longest the wait lasts, counted from the attach. */
export const SETTLE_MAX_MS = 300;

interface Metrics {
  cssLayoutViewport?: { clientWidth?: number; clientHeight?: number };
}

/** The viewport's size now, or undefined when the page does not say (a test fake, an error). */
async function viewportSize(session: TabSession, timeoutMs: number) {
  const metrics = await session.send<Metrics>("Page.getLayoutMetrics", {}, { timeoutMs })
    .catch(() => undefined);
  const view = metrics?.cssLayoutViewport;
  if (typeof view?.clientWidth !== "number" || typeof view.clientHeight !== "number") return;
  return `${view.clientWidth}x${view.clientHeight}`;
}

/**
 * Resolves once the viewport of a session attached at `since` (Date.now()) is steady: unchanged
 * SETTLE_QUIET_MS after the attach, or, once it changed, unchanged over SETTLE_EVERY_MS; never later
 * than SETTLE_MAX_MS after the attach. Never throws.
 */
export async function settleViewport(session: TabSession, since: number): Promise<void> {
  const left = () => SETTLE_MAX_MS - (Date.now() - since);
  let last = await viewportSize(session, Math.max(left(), 1));
  if (last === undefined) return;
  let moved = false;
  while (left() > 0) {
    const quietLeft = SETTLE_QUIET_MS - (Date.now() - since);
    if (!moved && quietLeft <= 0) return;
    const wait = Math.min(SETTLE_EVERY_MS, left(), moved ? Infinity : quietLeft);
    await new Promise((resolve) => setTimeout(resolve, wait));
    const size = await viewportSize(session, Math.max(left(), 1));
    if (size === undefined) return;
    if (size === last && moved) return;
    if (size !== last) moved = true;
    last = size;
  }
}
