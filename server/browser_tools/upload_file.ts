import { hubError } from "../../protocol/errors.ts";
import {
  type PreparedFile,
  UPLOAD_MAX_BASE64_BYTES,
  UPLOAD_MAX_FILES,
  UPLOAD_MAX_PATH_BYTES,
} from "../../protocol/browser_methods/files.ts";
import { quoteClip } from "../../protocol/clip.ts";
import { fromBase64 } from "../../protocol/bytes.ts";
import { browserTool } from "./browser_tool.ts";
import type { PrepareContext } from "./browser_tool_interface.ts";

/** One entry of `files` as the agent wrote it (the method's schema checked its shape). */
type FileEntry = { path: string } | { name: string; mimeType?: string; contentBase64: string };

export const uploadFile = browserTool({
  name: "browser_upload_file",
  displayName: "Upload file",
  description: "Fill a file input (<input type=file>) with local files, by ref or selector, in " +
    "any frame; or click a button (for real, through the debugger) that opens a file chooser and " +
    "fill that chooser. Each file is { path } (an absolute path under the hub's allowed folders: " +
    "home, temp, additionalAllowedDirectories; not home's hidden folders such as ~/.ssh or " +
    "~/.config, nor browser profiles, unless listed there; at most " +
    `${UPLOAD_MAX_PATH_BYTES} bytes) or { name, mimeType?, contentBase64 } (at most ` +
    `${UPLOAD_MAX_BASE64_BYTES} bytes; the hub writes it to a private temp file). At most ` +
    `${UPLOAD_MAX_FILES} files; several only for an input that takes several. The page gets its ` +
    "input and change events. Answers the file names and whether the input itself or a chooser " +
    "was filled. Fails with FILE_NOT_ALLOWED or FILE_TOO_LARGE before touching the page, and " +
    "NOT_A_FILE_INPUT when the element is no file input and opens no chooser.",
  method: "files.upload",
  prepare: (input, context) => prepareUpload(input, context),
});

/**
 * The upload's input as the extension receives it: every file a path in the hub's private upload
 * folder, a copy of a checked local file or a base64 file written there. Every path is checked and
 * copied before any base64 file is written, and a refusal removes the copies made, so a refused
 * call leaves nothing behind.
 */
export async function prepareUpload(
  input: Record<string, unknown>,
  { files }: PrepareContext,
): Promise<Record<string, unknown>> {
  const entries = input.files as FileEntry[];
  const decoded = entries.map((entry) => "path" in entry ? undefined : decode(entry));
  const settled = await Promise.allSettled(
    entries.map((entry) =>
      "path" in entry ? files.readable(entry.path, UPLOAD_MAX_PATH_BYTES) : undefined
    ),
  );
  const copies = settled.flatMap((one) =>
    one.status === "fulfilled" && one.value ? [one.value.path] : []
  );
  const refused = settled.find((one) => one.status === "rejected");
  if (refused) {
    await files.discard(copies);
    throw refused.reason;
  }
  const prepared: PreparedFile[] = [];
  for (const [i, entry] of entries.entries()) {
    const one = settled[i] as PromiseFulfilledResult<{ path: string } | undefined>;
    const path = "path" in entry ? one.value!.path : await files.temporary(entry.name, decoded[i]!);
    prepared.push({ path });
  }
  return { ...input, files: prepared };
}

/** A base64 file's bytes; FILE_TOO_LARGE over the limit, INVALID_ARGUMENTS when not base64. */
function decode(entry: { name: string; contentBase64: string }): Uint8Array {
  const text = entry.contentBase64.replace(/\s+/g, "");
  // Three bytes per four characters: refuse a large one before decoding it.
  const estimate = Math.floor(text.length / 4) * 3;
  if (estimate > UPLOAD_MAX_BASE64_BYTES + 2) throw tooLarge(entry.name, estimate);
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(text);
  } catch {
    throw hubError(
      "INVALID_ARGUMENTS",
      `The contentBase64 of ${quoteClip(entry.name)} is not base64 (A-Z, a-z, 0-9, + and /, ` +
        "padded with =).",
    );
  }
  if (bytes.length > UPLOAD_MAX_BASE64_BYTES) throw tooLarge(entry.name, bytes.length);
  return bytes;
}

function tooLarge(name: string, bytes: number) {
  return hubError(
    "FILE_TOO_LARGE",
    `${quoteClip(name)} is about ${bytes} bytes, over the limit of ${UPLOAD_MAX_BASE64_BYTES} ` +
      "bytes for contentBase64. Save it to a file and pass its path instead (at most " +
      `${UPLOAD_MAX_PATH_BYTES} bytes).`,
  );
}
