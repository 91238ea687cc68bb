/**
 * Images for browser_screenshot_tab: capturing the window, fitting a PNG into `maxBytes` (a JPEG at
 * falling quality otherwise), decoding a PNG (base64 itself: protocol/bytes.ts).
 */
import { hubError } from "../../../../protocol/errors.ts";
import { MAX_MAX_BYTES, type Shot } from "../../../../protocol/screenshot.ts";
import { base64Bytes, fromBase64, toBase64 } from "../../../../protocol/bytes.ts";

export const JPEG_QUALITIES = [80, 60, 40];
const CAPTURE_RETRIES = 3;

/**
 * The PNG when it fits in `maxBytes`, else the first JPEG quality that fits; fails with
 * SCREENSHOT_TOO_LARGE when none does.
 */
export async function fitShot(
  tabId: number,
  png: string,
  maxBytes: number,
  toJpeg: (quality: number) => Promise<string>,
): Promise<Shot> {
  const pngBytes = base64Bytes(png);
  if (pngBytes <= maxBytes) {
    return {
      tabId,
      mimeType: "image/png",
      format: "png",
      bytes: pngBytes,
      reduced: false,
      maxBytes,
      data: png,
    };
  }
  let smallest = pngBytes;
  for (const quality of JPEG_QUALITIES) {
    const data = await toJpeg(quality);
    const bytes = base64Bytes(data);
    smallest = Math.min(smallest, bytes);
    if (bytes > maxBytes) continue;
    return {
      tabId,
      mimeType: "image/jpeg",
      format: "jpeg",
      bytes,
      reduced: true,
      pngBytes,
      quality,
      maxBytes,
      data,
    };
  }
  const lowest = JPEG_QUALITIES[JPEG_QUALITIES.length - 1];
  throw hubError(
    "SCREENSHOT_TOO_LARGE",
    `The screenshot of tab ${tabId} is ${pngBytes} bytes as PNG and still ${smallest} bytes as ` +
      `JPEG at quality ${lowest}, over maxBytes ${maxBytes}. Pass a larger maxBytes (at most ` +
      `${MAX_MAX_BYTES}), or make the browser window smaller and try again.`,
  );
}

/** captureVisibleTab as base64 PNG, waiting out Chromium's two-captures-per-second quota. */
export async function capturePng(windowId: number): Promise<string> {
  for (let attempt = 0;; attempt++) {
    try {
      const dataUrl = await chrome.tabs.captureVisibleTab(windowId, { format: "png" });
      return dataUrl.slice(dataUrl.indexOf(",") + 1);
    } catch (error) {
      const quota = /MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(String(error));
      if (!quota || attempt >= CAPTURE_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
  }
}

/**
 * Re-encodes a base64 PNG as base64 JPEGs of a given quality; the PNG is decoded once, on first
 * use (service workers have createImageBitmap and OffscreenCanvas).
 */
export function jpegEncoder(png: string): (quality: number) => Promise<string> {
  let canvas: Promise<OffscreenCanvas> | undefined;
  const draw = async () => {
    const bitmap = await pngBitmap(png);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext("2d")!.drawImage(bitmap, 0, 0);
    bitmap.close();
    return canvas;
  };
  return async (quality) => {
    const blob = await (canvas ??= draw()).then((c) =>
      c.convertToBlob({ type: "image/jpeg", quality: quality / 100 })
    );
    return toBase64(new Uint8Array(await blob.arrayBuffer()));
  };
}

/** A base64 PNG decoded (service workers have createImageBitmap). */
export async function pngBitmap(png: string): Promise<ImageBitmap> {
  return await createImageBitmap(new Blob([fromBase64(png)], { type: "image/png" }));
}
