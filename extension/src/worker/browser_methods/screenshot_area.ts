/**
 * browser_screenshot_tab of one element (`ref`/`selector`) or of the whole page (`fullPage`):
 * what `chrome.tabs.captureVisibleTab` cannot do, since it sees only the window.
 *
 * The element is scrolled into view and measured across frames (element_point.ts); the picture
 * comes from the debugger, `Page.captureScreenshot` with a clip in page coordinates (the element's
 * box plus the page's scroll offset from `Page.getLayoutMetrics`), and `captureBeyondViewport`
 * when the element or page reaches past the window. A JPEG, when the PNG is over maxBytes, is
 * captured again as JPEG at the quality tried.
 *
 * Without the debugger (setting off, or another debugger holds the tab), an element that fits in
 * the window is cut out of an ordinary capture of the window; a larger element and a full page
 * fail with the debugger's error (DEBUGGER_OFF, DEBUGGER_BUSY), which says how to free it.
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import { type HubError, hubError } from "../../../../protocol/errors.ts";
import { MAX_CAPTURE_SIDE, type Shot } from "../../../../protocol/screenshot.ts";
import type { MethodContext } from "./browser_method.ts";
import { isFallbackError } from "./action_outcome.ts";
import { pointAt } from "./element_point.ts";
import type { TabSession } from "../debugger_sessions.ts";
import { capturePng, fitShot, jpegEncoder, pngBitmap } from "./screenshot_image.ts";
import { toBase64 } from "../../../../protocol/bytes.ts";

const TOOL = "browser_screenshot_tab";
/** A large page's capture takes a while: more than a plain command's bound. */
const CAPTURE_MS = 20_000;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface LayoutMetrics {
  cssLayoutViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  cssContentSize: Rect;
}

/** The element's or page's picture; the tab is already the active one of its window. */
export async function areaShot(
  tab: chrome.tabs.Tab,
  input: BrowserInput<"tabs.screenshot">,
  context: MethodContext,
): Promise<Shot> {
  const tabId = tab.id!;
  const element = input.ref !== undefined || input.selector !== undefined;
  let session: TabSession | undefined;
  let refusal: Refusal | undefined;
  try {
    // A new attach is handed out once Chromium's bar stopped resizing the page (debugger_settle.ts).
    session = await context.sessions.session(tabId);
  } catch (error) {
    if (!element || !isFallbackError(error, REFUSALS)) throw error;
    refusal = error;
  }
  const box = element ? await elementBox(tabId, input, context) : undefined;
  if (!session) return await croppedShot(tab, box!, input.maxBytes, refusal!);
  const metrics = await session.send<LayoutMetrics>("Page.getLayoutMetrics");
  const view = metrics.cssLayoutViewport;
  const wanted = box
    ? { x: box.x + view.pageX, y: box.y + view.pageY, width: box.width, height: box.height }
    : { x: 0, y: 0, ...sizeOf(metrics.cssContentSize) };
  const { clip, cut } = bounded(wanted);
  const beyond = !box || !inside(box, view.clientWidth, view.clientHeight);
  const capture = async (format: "png" | "jpeg", quality?: number) =>
    (await session.send<{ data: string }>("Page.captureScreenshot", {
      format,
      ...(quality !== undefined ? { quality } : {}),
      clip: { ...clip, scale: 1 },
      captureBeyondViewport: beyond,
    }, { timeoutMs: CAPTURE_MS })).data;
  const png = await capture("png");
  const shot = await fitShot(tabId, png, input.maxBytes, (quality) => capture("jpeg", quality));
  return { ...shot, area: box ? "element" : "page", clip, ...(cut ? { cut } : {}) };
}

/**
 * The element's border box in the top viewport's CSS pixels, after scrolling it into view. A
 * scroll is waited out until it is drawn (`paint`): the debugger captures what the compositor
 * drew, and a capture (beyond the window most of all) taken before the new scroll position is
 * drawn shows the element partly rendered, though the clip measured after the scroll is right.
 */
async function elementBox(
  tabId: number,
  input: BrowserInput<"tabs.screenshot">,
  context: MethodContext,
): Promise<Rect> {
  const target = { ref: input.ref, selector: input.selector, frame: input.frame };
  const { box } = await pointAt(tabId, target, context, TOOL, {
    scroll: true,
    hitCheck: false,
    paint: true,
  });
  if (box.width >= 1 && box.height >= 1) return box;
  const named = input.ref ? `ref "${input.ref}"` : "the element";
  throw hubError(
    "ELEMENT_NOT_FOUND",
    `${named} takes no room on the page (${box.width}×${box.height} px), so there is nothing ` +
      "to capture. Check it with browser_snapshot, or capture what holds it.",
  );
}

/** The debugger's refusals that an ordinary capture of the window can stand in for. */
const REFUSALS = ["DEBUGGER_OFF", "DEBUGGER_BUSY"] as const;

/** A debugger refusal that an ordinary capture of the window can stand in for. */
type Refusal = HubError & { readonly code: typeof REFUSALS[number] };

/**
 * The element cut out of a capture of the window: only when all of it shows there. Otherwise the
 * debugger's error, saying the element is larger than the window.
 */
async function croppedShot(
  tab: chrome.tabs.Tab,
  box: Rect,
  maxBytes: number,
  refusal: Refusal,
): Promise<Shot> {
  const tabId = tab.id!;
  const [frame] = await chrome.scripting.executeScript({
    target: { tabId },
    func: () => ({ width: innerWidth, height: innerHeight }),
  });
  const window = frame?.result as { width: number; height: number } | undefined;
  if (!window || !inside(box, window.width, window.height)) {
    throw hubError(
      refusal.code,
      "This element does not fit in the window, and capturing beyond the window needs the " +
        `debugger. ${refusal.payload.message}`,
      refusal.payload.details,
    );
  }
  const whole = await capturePng(tab.windowId);
  const bitmap = await pngBitmap(whole);
  const scale = bitmap.width / window.width;
  const canvas = new OffscreenCanvas(
    Math.max(1, Math.round(box.width * scale)),
    Math.max(1, Math.round(box.height * scale)),
  );
  canvas.getContext("2d")!.drawImage(
    bitmap,
    box.x * scale,
    box.y * scale,
    box.width * scale,
    box.height * scale,
    0,
    0,
    canvas.width,
    canvas.height,
  );
  bitmap.close();
  const blob = await canvas.convertToBlob({ type: "image/png" });
  const png = toBase64(new Uint8Array(await blob.arrayBuffer()));
  const shot = await fitShot(tabId, png, maxBytes, jpegEncoder(png));
  return { ...shot, area: "element", clip: box };
}

/** Whether all of `box` lies in a window of `width` × `height`. */
function inside(box: Rect, width: number, height: number): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 &&
    box.y + box.height <= height + 0.5;
}

function sizeOf(rect: Rect) {
  return { width: Math.ceil(rect.width), height: Math.ceil(rect.height) };
}

/** `rect` in whole pixels, its sides cut to MAX_CAPTURE_SIDE (`cut` says so). */
function bounded(rect: Rect): { clip: Rect; cut: boolean } {
  const x = Math.max(0, Math.floor(rect.x));
  const y = Math.max(0, Math.floor(rect.y));
  const width = Math.ceil(rect.x + rect.width) - x;
  const height = Math.ceil(rect.y + rect.height) - y;
  const cut = width > MAX_CAPTURE_SIDE || height > MAX_CAPTURE_SIDE;
  return {
    clip: {
      x,
      y,
      width: Math.min(width, MAX_CAPTURE_SIDE),
      height: Math.min(height, MAX_CAPTURE_SIDE),
    },
    cut,
  };
}
