/**
 * Files into and out of a page: uploads (`files.upload`, browser_upload_file) and PDFs
 * (`files.pdf`, browser_save_pdf). The hub checks every local path and writes every file
 * (server/browser_tools/local_files.ts) before the extension sees the call: the extension only
 * ever receives paths the hub allowed, and answers the PDF's bytes for the hub to write.
 */
import * as z from "zod";
import { MAX_MESSAGE_BYTES } from "../limits.ts";
import { type HubError, hubError } from "../errors.ts";
import { frameField, refField, selectorField, tabIdField, withOneTarget } from "./fields.ts";
import type { BrowserMethodSpec } from "./spec.ts";

/** Most files one browser_upload_file call sets. */
export const UPLOAD_MAX_FILES = 10;
/** Largest file given by `path` (bytes). */
export const UPLOAD_MAX_PATH_BYTES = 50 * 1024 * 1024;
/**
 * Largest file given as `contentBase64` (decoded bytes). Its base64 is a third larger, and a call's
 * whole body is at most MAX_MESSAGE_BYTES (10 MiB), which bounds several such files together.
 */
export const UPLOAD_MAX_BASE64_BYTES = 7 * 1024 * 1024;
/** Longest file name of a `contentBase64` file. */
export const UPLOAD_NAME_MAX_CHARS = 200;
/** Longest local path the hub looks at. */
export const PATH_MAX_CHARS = 4096;
/**
 * Largest PDF browser_save_pdf saves with `path`: it crosses the extension link as base64 in one
 * reply (at most MAX_MESSAGE_BYTES, a third larger than the bytes).
 */
export const PDF_MAX_BYTES = 7 * 1024 * 1024;
/**
 * Largest PDF browser_save_pdf answers inline (as base64, without `path`): its text must stay under
 * the 200,000 characters a built-in tool's answer is cut at (protocol/text_cap.ts).
 */
export const PDF_INLINE_MAX_BYTES = 140_000;

/** A plain file name: no folder part, no NUL, not `.` or `..`. */
export function isPlainFileName(name: string): boolean {
  return name !== "." && name !== ".." && !/[/\\\0]/.test(name) && name.trim() !== "";
}

const pathFile = z.strictObject({
  path: z.string().min(1).max(PATH_MAX_CHARS).describe(
    "Absolute path of a local file, under the hub's allowed folders (home, temp, and the " +
      "config's additionalAllowedDirectories).",
  ),
});

const contentFile = z.strictObject({
  name: z.string().min(1).max(UPLOAD_NAME_MAX_CHARS).refine(isPlainFileName, {
    message: 'must be a plain file name such as "report.csv" (no folders)',
  }).describe('The file name the page sees, e.g. "photo.png".'),
  mimeType: z.string().max(200).optional().describe(
    "Informational: Chromium gives the page the type of the name's extension, so name the file " +
      'with the right one (".png", ".csv").',
  ),
  contentBase64: z.string().min(0).max(MAX_MESSAGE_BYTES).describe(
    `The file's bytes, base64 (at most ${UPLOAD_MAX_BASE64_BYTES} bytes decoded).`,
  ),
});

export const FILE_METHODS = {
  "files.upload": {
    input: withOneTarget(z.object({
      ref: refField("the file input (or a button that opens a file chooser)"),
      selector: selectorField("the file input (or a button that opens a file chooser)"),
      tabId: tabIdField,
      frame: frameField,
      files: z.array(z.union([pathFile, contentFile])).min(1).max(UPLOAD_MAX_FILES).describe(
        `The files to set (1-${UPLOAD_MAX_FILES}): each { path } of a local file (at most ` +
          `${UPLOAD_MAX_PATH_BYTES} bytes) or { name, mimeType?, contentBase64 } (at most ` +
          `${UPLOAD_MAX_BASE64_BYTES} bytes). They replace what the input held.`,
      ),
    })),
  },
  "files.pdf": {
    input: z.object({
      tabId: tabIdField,
      path: z.string().min(1).max(PATH_MAX_CHARS).optional().describe(
        "Absolute path to save the PDF at, ending in .pdf, in an existing folder under the hub's " +
          "allowed folders (home, temp, additionalAllowedDirectories), where no file exists yet (a " +
          "file is never replaced: pick a new name). Omit to get the PDF back as base64 (at most " +
          `${PDF_INLINE_MAX_BYTES} bytes).`,
      ),
    }),
  },
} satisfies Record<string, BrowserMethodSpec>;

/**
 * FILE_TOO_LARGE for a PDF over its bound: `inline` (no path: answered as base64) or saved. Both
 * ends refuse with it: the extension before sending the bytes, the hub before answering them.
 */
export function pdfTooLarge(bytes: number, inline: boolean, atLeast = false): HubError {
  const size = `${atLeast ? "more than " : ""}${bytes} bytes`;
  return hubError(
    "FILE_TOO_LARGE",
    inline
      ? `The PDF is ${size}, over the ${PDF_INLINE_MAX_BYTES} bytes browser_save_pdf ` +
        "answers inline. Pass path to save it to a file instead."
      : `The PDF is ${size}, over the ${PDF_MAX_BYTES} bytes browser_save_pdf saves.`,
  );
}

/** One file as the extension receives it: the hub turned every entry into a checked local path. */
export interface PreparedFile {
  path: string;
}

/** What `files.upload` answers. */
export interface UploadResult {
  tabId: number;
  /** The names the page sees, in order. */
  files: string[];
  /** `input`: set on the `<input type=file>` itself; `chooser`: the file chooser it opened. */
  via: "input" | "chooser";
  /** The element acted on, as browser_query_elements describes one (its ref at least). */
  element?: Record<string, unknown>;
  /** With `via: "chooser"`: the click that opened it was a real one. */
  input?: "trusted";
}

/** What `files.pdf` answers to the hub (the hub writes or forwards the bytes). */
export interface PdfResult {
  tabId: number;
  url: string;
  /** Decoded size of `data`. */
  bytes: number;
  /** The PDF, base64. */
  data: string;
}

/** What each method of this file answers. */
export type FileResults = {
  "files.upload": UploadResult;
  "files.pdf": PdfResult;
};
