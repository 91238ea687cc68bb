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
}

export interface RegisteredBrowserTool extends BrowserTool {
  inputSchema: JsonSchema;
}
