/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { PDF_INLINE_MAX_BYTES } from "../../../../protocol/browser_methods/files.ts";
import { fromBase64, toBase64 } from "../../../../protocol/bytes.ts";
import { failureOf, fakeMethodContext, withChrome } from "../_test_fixtures.ts";
import type { DebuggerSessions, TabSession } from "../debugger_sessions.ts";
import { filesPdf, PDF_CHUNK_BYTES } from "./files_pdf.ts";

const chromeWithTab = {
  tabs: { get: (id: number) => Promise.resolve({ id, url: "https://example.test/" }) },
};

/**
 * Sessions whose tab prints to stream "s1" that answers `chunks` (base64 each) then eof, or never
 * ends when `endless`; records every command sent.
 */
function printingSessions(chunks: Uint8Array[], sent: [string, unknown][], endless = false) {
  let next = 0;
  const session = {
    tabId: 4,
    children: () => [],
    send: <T>(method: string, params?: Record<string, unknown>) => {
      sent.push([method, params]);
      if (method === "Page.printToPDF") return Promise.resolve({ stream: "s1" } as T);
      if (method === "IO.read") {
        const part = endless ? new Uint8Array(PDF_CHUNK_BYTES) : chunks[next++] ?? new Uint8Array();
        const eof = !endless && next >= chunks.length;
        return Promise.resolve(
          { base64Encoded: true, data: toBase64(part), eof } as T,
        );
      }
      return Promise.resolve({} as T);
    },
  } as unknown as TabSession;
  return { session: () => Promise.resolve(session) } as unknown as DebuggerSessions;
}

Deno.test("the PDF is read from Chromium's stream in chunks, then the stream is closed", async () => {
  await withChrome(chromeWithTab, async () => {
    const sent: [string, unknown][] = [];
    const parts = [new TextEncoder().encode("%PDF-1.7 "), new TextEncoder().encode("end")];
    const context = fakeMethodContext({ sessions: printingSessions(parts, sent) });
    const pdf = await filesPdf({ tabId: 4 } as never, context);
    assertEquals(new TextDecoder().decode(fromBase64(pdf.data)), "%PDF-1.7 end");
    assertEquals(pdf.bytes, 12);
    assertEquals(sent[0], ["Page.printToPDF", {
      printBackground: true,
      transferMode: "ReturnAsStream",
    }]);
    assertEquals(sent.map(([method]) => method), [
      "Page.printToPDF",
      "IO.read",
      "IO.read",
      "IO.close",
    ]);
    assertEquals(sent.at(-1), ["IO.close", { handle: "s1" }]);
  });
});

Deno.test("an endless PDF stops with FILE_TOO_LARGE just past the bound and closes the stream", async () => {
  await withChrome(chromeWithTab, async () => {
    const sent: [string, unknown][] = [];
    const context = fakeMethodContext({ sessions: printingSessions([], sent, true) });
    const error = await failureOf(filesPdf({ tabId: 4 } as never, context));
    assertEquals(error.code, "FILE_TOO_LARGE");
    assertMatch(error.message, /more than 140000 bytes.*Pass path/);
    const reads = sent.filter(([method]) => method === "IO.read").length;
    assertEquals(reads, Math.floor(PDF_INLINE_MAX_BYTES / PDF_CHUNK_BYTES) + 1);
    assertEquals(sent.at(-1), ["IO.close", { handle: "s1" }]);
  });
});
