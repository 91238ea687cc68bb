/**
 * `files.pdf` (browser_save_pdf): prints the tab's page to PDF through the debugger
 * (`Page.printToPDF`, backgrounds included) and answers the bytes as base64; the hub saves them
 * at the checked `path` or answers them (server/browser_tools/save_pdf.ts). Chromium hands the PDF
 * over as a stream, read in chunks (`IO.read`): once the bytes read pass the bound of its way out,
 * the stream is closed and the call fails, so a page that prints itself huge is never held whole.
 */
import {
  PDF_INLINE_MAX_BYTES,
  PDF_MAX_BYTES,
  pdfTooLarge,
} from "../../../../protocol/browser_methods/files.ts";
import { hubError } from "../../../../protocol/errors.ts";
import { concatBytes, fromBase64, toBase64 } from "../../../../protocol/bytes.ts";
import type { TabSession } from "../debugger_sessions.ts";
import { type BrowserMethod, webPageTab } from "./browser_method.ts";

/** How long Chromium may take to lay out and print a long page. */
export const PRINT_MS = 25_000;
/** How much of the PDF one `IO.read` asks for. */
export const PDF_CHUNK_BYTES = 256 * 1024;
/** Reads that bring nothing before the stream counts as broken (it should end with eof). */
const EMPTY_READS_MAX = 20;

export const filesPdf: BrowserMethod<"files.pdf"> = async (input, context) => {
  const { tabId, url } = await webPageTab(input, ", so it cannot be printed to PDF.");
  return await context.calls.run(tabId, "browser_save_pdf", async () => {
    const session = await context.sessions.session(tabId);
    const { stream } = await session.send<{ stream?: string }>(
      "Page.printToPDF",
      { printBackground: true, transferMode: "ReturnAsStream" },
      { timeoutMs: PRINT_MS },
    );
    if (!stream) throw hubError("INTERNAL", "Chromium printed the page but gave no PDF stream.");
    const pdf = await readStream(session, stream, input.path === undefined);
    return { tabId, url, bytes: pdf.length, data: toBase64(pdf) };
  });
};

/**
 * The bytes of CDP stream `handle`, read in chunks; FILE_TOO_LARGE as soon as they pass the bound
 * of the PDF's way out (`inline`: answered to the agent, else saved to a file). The stream is
 * closed in every case.
 */
async function readStream(
  session: TabSession,
  handle: string,
  inline: boolean,
): Promise<Uint8Array> {
  const maxBytes = inline ? PDF_INLINE_MAX_BYTES : PDF_MAX_BYTES;
  const parts: Uint8Array[] = [];
  let total = 0;
  let empty = 0;
  try {
    for (;;) {
      const chunk = await session.send<{ data?: string; base64Encoded?: boolean; eof?: boolean }>(
        "IO.read",
        { handle, size: PDF_CHUNK_BYTES },
      );
      const part = chunk.base64Encoded
        ? fromBase64(chunk.data ?? "")
        : new TextEncoder().encode(chunk.data ?? "");
      total += part.length;
      if (total > maxBytes) throw pdfTooLarge(maxBytes, inline, true);
      if (part.length > 0) parts.push(part);
      if (chunk.eof) return concatBytes(parts);
      if (part.length === 0 && ++empty > EMPTY_READS_MAX) {
        throw hubError("INTERNAL", "Chromium's PDF stream stopped before its end.");
      }
    }
  } finally {
    await session.send("IO.close", { handle }).catch(() => {});
  }
}
