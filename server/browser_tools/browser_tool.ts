/**
 * A built-in tool declared as data: name, description and the extension method that runs it.
 * The method's input schema (descriptions, defaults, limits) comes from the method table in
 * protocol/browser_methods/, which the extension's handlers are typed from too. The pipeline
 * validates, permits, audits and dispatches every tool the same way, so a new browser tool is one
 * method in that table, one file here and one line in `mod.ts`.
 */
import { z } from "zod";
import { checkInput } from "../../protocol/call_contract.ts";
import type { JsonSchema } from "../plugins/tool_schema.ts";
import {
  BROWSER_METHODS,
  type BrowserInput,
  type BrowserMethodName,
  type BrowserResult,
} from "../../protocol/browser_methods/mod.ts";
import type {
  BrowserTool,
  ContentBlock,
  ContentContext,
  PrepareContext,
  RegisteredBrowserTool,
} from "./browser_tool_interface.ts";

/** What a tool file declares; `M` is the extension method that runs it. */
export interface BrowserToolDeclaration<M extends BrowserMethodName> {
  /** `browser_*` or `extension_*`. */
  name: string;
  displayName: string;
  description: string;
  /** The extension method (`tool.dispatch` `method`) that runs the tool. */
  method: M;
  /**
   * Turns the extension's value (what method `M` answers) into content; default: the value as
   * JSON text. The hub does not check the value's shape, so code that reads a field should not
   * throw when an extension of another version answers differently.
   */
  toContent?: (
    value: BrowserResult<M>,
    context: ContentContext<BrowserInput<M>>,
  ) => Promise<ContentBlock[]>;
  /** With `toContent`: also answer the value as `structuredContent` (BrowserTool.structured). */
  structured?: boolean;
  /** Its result is read from a page: marked as page content (BrowserTool.pageContent). */
  pageContent?: true;
  /**
   * Checks what only the hub can and answers the input the extension receives
   * (BrowserTool.prepare); it must still parse with method `M`'s schema.
   */
  prepare?: (input: BrowserInput<M>, context: PrepareContext) => Promise<Record<string, unknown>>;
}

/** A tool from its declaration, with the input schema of the method it names. */
export function browserTool<M extends BrowserMethodName>(
  declaration: BrowserToolDeclaration<M>,
): BrowserTool {
  const { toContent, prepare, ...rest } = declaration;
  const tool: BrowserTool = { ...rest, input: BROWSER_METHODS[declaration.method].input };
  // The pipeline passes this method's answer and the input the catalog parsed with its schema.
  if (toContent) tool.toContent = toContent as BrowserTool["toContent"];
  if (prepare) tool.prepare = prepare as BrowserTool["prepare"];
  return tool;
}

/**
 * The tool with the JSON Schema clients see, derived on first use (the first `tools/list`), not at
 * start (see inputJsonSchema). Every declaration's schema is derived and compared in
 * browser_methods_test.ts, so none fails at run time.
 */
export function registerBrowserTool(tool: BrowserTool): RegisteredBrowserTool {
  if (!/^(browser|extension)_[a-z0-9_]+$/.test(tool.name)) {
    throw new Error(`Browser tool name "${tool.name}" must start with browser_ or extension_.`);
  }
  return {
    ...tool,
    get inputSchema() {
      return inputJsonSchema(tool.input);
    },
  };
}

const derived = new WeakMap<z.ZodObject, JsonSchema>();

/**
 * The JSON Schema (draft 7) of a zod input, as clients see it; derived once per schema, when first
 * asked for: zod's conversion of the built-in tools' schemas takes 5–10 ms of a start.
 */
export function inputJsonSchema(input: z.ZodObject): JsonSchema {
  let schema = derived.get(input);
  if (!schema) {
    const { $schema: _, ...rest } = z.toJSONSchema(input, {
      target: "draft-7",
      io: "input",
      unrepresentable: "throw",
    }) as JsonSchema;
    derived.set(input, schema = rest);
  }
  return schema;
}

/**
 * Validates arguments with a zod input through the call contract's one argument check
 * (`checkInput`): the parsed input (defaults applied) or every problem.
 */
export function parseWithZod(
  input: z.ZodObject,
  args: Record<string, unknown>,
): { ok: true; input: Record<string, unknown> } | { ok: false; errors: string[] } {
  const checked = checkInput(input, args);
  if (checked.ok) return { ok: true, input: checked.input as Record<string, unknown> };
  return { ok: false, errors: checked.problems };
}
