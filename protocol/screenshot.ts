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
}
