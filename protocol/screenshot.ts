/**
 * What the hub's `browser_screenshot_tab` and the extension's `tabs.screenshot` agree on: the size
 * limits of its `maxBytes` input (browser_methods/tabs.ts) and the answer's shape. Bytes are of the decoded image; base64 makes it a
 * third larger. The upper bound keeps an image under 5 MB of base64, which common MCP clients and
 * models accept.
 */
export const DEFAULT_MAX_BYTES = 2_000_000;
export const MAX_MAX_BYTES = 3_750_000;

/** What `tabs.screenshot` answers. */
export interface Shot {
  tabId: number;
  mimeType: "image/png" | "image/jpeg";
  format: "png" | "jpeg";
  /** Decoded size of `data`. */
  bytes: number;
  /** True when the PNG was over `maxBytes` and this is a smaller JPEG. */
  reduced: boolean;
  /** The PNG's size when reduced. */
  pngBytes?: number;
  /** JPEG quality (0–100) when reduced. */
  quality?: number;
  maxBytes: number;
  /** Base64. */
  data: string;
  /** What was captured when not the visible area: one element, or the whole page. */
  area?: "element" | "page";
  /** With `area`: the rectangle captured, in CSS pixels of the page (0, 0 is its top left). */
  clip?: { x: number; y: number; width: number; height: number };
  /** With `area`: the element or page was larger than MAX_CAPTURE_SIDE; its top left part is shown. */
  cut?: boolean;
}

/**
 * The longest side of an element or full-page capture, in CSS pixels: larger images fail in
 * Chromium's compositor (and would not fit maxBytes anyway); a longer page is cut to its top part.
 */
export const MAX_CAPTURE_SIDE = 16_000;
