/**
 * A built-in tool declared as data: name, description, zod input and the extension method that
 * runs it. The pipeline validates, permits, audits and dispatches every one the same way, so a
 * new browser tool is one new file and one line in `mod.ts`.
 */
import { z } from "zod";
import type { JsonSchema } from "../plugins/tool_schema.ts";

/** MCP content blocks a tool result may carry. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

export interface BrowserTool {
  /** `browser_*` or `extension_*`. */
  name: string;
  displayName: string;
  description: string;
  input: z.ZodObject;
  /** The extension method (`tool.dispatch` `method`) that runs the tool. */
  method: string;
  /** Turns the extension's value into content; default: the value as JSON text. */
  toContent?: (value: unknown, context: ContentContext) => Promise<ContentBlock[]>;
}

/** What a tool's `toContent` may use besides the extension's value. */
export interface ContentContext {
  /** The call's validated input (defaults applied). */
  input: Record<string, unknown>;
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

/** Derives the JSON Schema clients see; throws at startup if a declaration is not expressible. */
export function registerBrowserTool(tool: BrowserTool): RegisteredBrowserTool {
  if (!/^(browser|extension)_[a-z0-9_]+$/.test(tool.name)) {
    throw new Error(`Browser tool name "${tool.name}" must start with browser_ or extension_.`);
  }
  return { ...tool, inputSchema: inputJsonSchema(tool.input) };
}

/** The JSON Schema (draft 7) of a zod input, as clients see it. */
export function inputJsonSchema(input: z.ZodObject): JsonSchema {
  const { $schema: _, ...schema } = z.toJSONSchema(input, {
    target: "draft-7",
    io: "input",
    unrepresentable: "throw",
  }) as JsonSchema;
  return schema;
}

/** Validates arguments with a zod input: the parsed input (defaults applied) or problems. */
export function parseWithZod(
  input: z.ZodObject,
  args: Record<string, unknown>,
): { ok: true; input: Record<string, unknown> } | { ok: false; errors: string[] } {
  const result = input.safeParse(args);
  if (result.success) return { ok: true, input: result.data as Record<string, unknown> };
  return {
    ok: false,
    errors: result.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`),
  };
}

/** The optional `tabId` most browser tools take. */
export const tabIdField = z.number().int().min(1).optional().describe(
  "Browser tab id (from browser_list_tabs). Omit to use the active tab of the focused window.",
);
