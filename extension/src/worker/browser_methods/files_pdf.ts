/**
 * `files.pdf` (browser_save_pdf): prints the tab's page to PDF through the debugger
 * (`Page.printToPDF`, backgrounds included) and answers the bytes as base64; the hub saves them
 * at the checked `path` or answers them (server/browser_tools/save_pdf.ts). A PDF over the bound of
 * its way out fails here, before its bytes cross the link.
 */
import {
  PDF_INLINE_MAX_BYTES,
  PDF_MAX_BYTES,
  pdfTooLarge,
} from "../../../../protocol/browser_methods/files.ts";
import { base64Bytes } from "../../../../protocol/bytes.ts";
import { type BrowserMethod, webPageTab } from "./browser_method.ts";

/** How long Chromium may take to lay out and print a long page. */
export const PRINT_MS = 25_000;

export const filesPdf: BrowserMethod<"files.pdf"> = async (input, context) => {
  const { tabId, url } = await webPageTab(input, ", so it cannot be printed to PDF.");
  return await context.calls.run(tabId, "browser_save_pdf", async () => {
    const session = await context.sessions.session(tabId);
    const { data } = await session.send<{ data?: string }>(
      "Page.printToPDF",
      { printBackground: true, transferMode: "ReturnAsBase64" },
      { timeoutMs: PRINT_MS },
    );
    const text = data ?? "";
    const bytes = base64Bytes(text);
    const inline = input.path === undefined;
    if (bytes > (inline ? PDF_INLINE_MAX_BYTES : PDF_MAX_BYTES)) throw pdfTooLarge(bytes, inline);
    return { tabId, url, bytes, data: text };
  });
};
