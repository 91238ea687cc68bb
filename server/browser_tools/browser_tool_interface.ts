/**
 * What the calls need of a built-in browser tool: its name, schema and method, how its result
 * becomes content blocks, and the registered form the catalog lists. Declared apart from the
 * declaring helpers (./browser_tool.ts: browserTool, registerBrowserTool, the input parsing), so
 * calls/ depends on this shape only.
 */
import type { z } from "zod";
import type { JsonSchema } from "../plugins/tool_schema.ts";
import type { BrowserMethodName } from "../../protocol/browser_methods/mod.ts";

/** MCP content blocks a tool result may carry. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** A declared tool with its method's input schema, as the pipeline uses it. */
export interface BrowserTool {
  name: string;
  displayName: string;
  description: string;
  method: BrowserMethodName;
  /** The method's input schema (from protocol/browser_methods/). */
  input: z.ZodObject;
  /**
   * `value` is what the extension answered for `method`; `context.input` is the input the catalog
   * parsed with `input`.
   */
  toContent?: (value: unknown, context: ContentContext) => Promise<ContentBlock[]>;
  /**
   * With `toContent`: the value still goes out as `structuredContent` beside that content (a
   * tool whose text is written for people, its fields for programs). Without it, a tool with its
   * own content answers that content only.
   */
  structured?: boolean;
  /**
   * The tool reads what a page wrote (its text, outline, HTML, elements, console, requests,
   * cookies, a script's value): its result is marked as page content, data and not instructions
   * (the first text line and `structuredContent.pageContent`; decision 073).
   */
  pageContent?: boolean;
  /**
   * Runs after the argument check and the person's confirmation, before the dispatch: checks what
   * only the hub can (local files) and answers the input the extension receives, which may differ
   * from the agent's (a base64 file becomes a local path). Throws the call's error. `toContent`
   * then sees this input as `context.input`.
   */
  prepare?: (
    input: Record<string, unknown>,
    context: PrepareContext,
  ) => Promise<Record<string, unknown>>;
}

/** What a tool's `prepare` may use. */
export interface PrepareContext {
  files: LocalFiles;
  /** Milliseconds since the epoch (the hub's clock). */
  now(): number;
}

/**
 * Local files as browser tools may use them (browser_upload_file, browser_save_pdf): only under
 * the allowed folders (home, temp, `additionalAllowedDirectories`), never the hub's own config
 * folder, nor the home folder's hidden folders or a browser's profile unless listed; failures are
 * FILE_NOT_ALLOWED or FILE_TOO_LARGE with a message for the agent. Implemented by ./local_files.ts.
 */
export interface LocalFiles {
  /**
   * A file the browser may read: `path` absolute, a regular file of at most `maxBytes` bytes,
   * opened once and checked on that handle, then copied (0600) into a private folder of its own
   * (0700) under `<config dir>/uploads/`, removed after a while; answers the copy's path (named as
   * the real file) and size. The browser reads only the copy.
   */
  readable(path: string, maxBytes: number): Promise<{ path: string; bytes: number }>;
  /** Removes files `readable` or `temporary` answered (a call that failed after them). */
  discard(paths: string[]): Promise<void>;
  /**
   * Writes `bytes` as a private file named `name` (a plain file name): mode 0600, in a folder of
   * its own (0700) under `<config dir>/uploads/`, removed after a while; answers its path.
   */
  temporary(name: string, bytes: Uint8Array): Promise<string>;
  /**
   * A path the hub may write a new file at: absolute, ending in `extension` (".pdf"), in an
   * existing folder, no file there yet; answers it with that folder's symlinks resolved.
   */
  writable(path: string, extension: string): Promise<string>;
  /**
   * Writes `bytes` as a new file (mode 0600, appearing whole) at a path `writable` answered, after
   * checking its folder again; never replaces a file (FILE_NOT_ALLOWED).
   */
  write(path: string, bytes: Uint8Array): Promise<void>;
}

/** What a tool's `toContent` may use besides the extension's value. */
export interface ContentContext<I = Record<string, unknown>> {
  /** The call's validated input (defaults applied). */
  input: I;
  /** Milliseconds since the epoch (the hub's clock). */
  now(): number;
  /**
   * Writes `bytes` to `<config dir>/screenshots/<name>` (atomically, mode 0600); resolves to
   * the file's path. `name` must be a plain file name.
   */
  saveFile(name: string, bytes: Uint8Array): Promise<string>;
  /** Local files under the allowed folders (browser_save_pdf's `path`); the pipeline sets it. */
  files?: LocalFiles;
}

export interface RegisteredBrowserTool extends BrowserTool {
  inputSchema: JsonSchema;
}
