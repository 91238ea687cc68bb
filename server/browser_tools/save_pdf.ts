import { HubError, hubError } from "../../protocol/errors.ts";
import {
  PDF_INLINE_MAX_BYTES,
  PDF_MAX_BYTES,
  pdfTooLarge,
} from "../../protocol/browser_methods/files.ts";
import { fromBase64 } from "../../protocol/bytes.ts";
import { browserTool } from "./browser_tool.ts";
import type { ContentBlock } from "./browser_tool_interface.ts";

export const savePdf = browserTool({
  name: "browser_save_pdf",
  displayName: "Save page as PDF",
  description: "Print a tab's page to PDF (as Chromium prints it, through the debugger). With " +
    "path (absolute, ending in .pdf, in an existing folder under the hub's allowed folders: " +
    "home, temp, additionalAllowedDirectories; not home's hidden folders) the hub saves it there " +
    "as a new file (a path where a file exists is refused: pick a new name) and answers " +
    `{ tabId, url, path, bytes } (at most ${PDF_MAX_BYTES} bytes). Without ` +
    "path it answers { tabId, url, bytes, mimeType, contentBase64 }, for PDFs of at most " +
    `${PDF_INLINE_MAX_BYTES} bytes; a larger one fails with FILE_TOO_LARGE (pass a path).`,
  method: "files.pdf",
  async prepare(input, { files }) {
    if (typeof input.path !== "string") return input;
    return { ...input, path: await files.writable(input.path, ".pdf") };
  },
  async toContent(pdf, { input, files }) {
    // An extension of another version may answer without a PDF: show what it sent.
    if (typeof pdf?.data !== "string") return [{ type: "text", text: JSON.stringify(pdf) }];
    const bytes = fromBase64(pdf.data);
    const { tabId, url } = pdf;
    if (input.path === undefined) {
      if (bytes.length > PDF_INLINE_MAX_BYTES) throw pdfTooLarge(bytes.length, true);
      const answer = {
        tabId,
        url,
        bytes: bytes.length,
        mimeType: "application/pdf",
        contentBase64: pdf.data,
      };
      return [text(answer)];
    }
    if (!files) throw saveFailed(input.path, new Error("this hub writes no local files"));
    await files.write(input.path, bytes).catch((error) => {
      // A refusal (a file appeared there, the folder changed) says what to do; it is not a fault.
      throw error instanceof HubError ? error : saveFailed(input.path!, error);
    });
    return [text({ tabId, url, path: input.path, bytes: bytes.length })];
  },
});

const text = (value: unknown): ContentBlock => ({ type: "text", text: JSON.stringify(value) });

function saveFailed(path: string, error: unknown): HubError {
  return hubError(
    "SAVE_FAILED",
    `Could not save the PDF at ${path}: ${(error as Error)?.message ?? error}. Check that the ` +
      "folder is writable, or call without path.",
    undefined,
    { fromTool: true },
  );
}
