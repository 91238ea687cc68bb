/**
 * Size limits of `browser_screenshot_tab`, shared by the hub's declaration and the extension's
 * method. Bytes are of the decoded image; base64 makes it a third larger. The upper bound keeps an
 * image under 5 MB of base64, which common MCP clients and models accept.
 */
export const DEFAULT_MAX_BYTES = 2_000_000;
export const MAX_MAX_BYTES = 3_750_000;
