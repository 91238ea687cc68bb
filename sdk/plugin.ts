/**
 * `definePlugin` and `defineTool`: what a plugin author writes. The plugin's identity (name, URL
 * patterns, settings schema) lives in the `hub` field of its package.json; anything repeated here
 * must agree with it, and `hub-plugin build` checks that it does.
 */
import type { z } from "zod";
import type { ConfigSchema } from "../protocol/plugin_manifest.ts";
import type { Log } from "./log.ts";
import type { CallProgress } from "../protocol/call_contract.ts";

/** What `reportProgress` takes: `{ progress, total?, message? }` (protocol/call_contract.ts). */
export type Progress = CallProgress;

export interface ToolContext {
  /** Tells the agent how far the tool is; each report also extends the call's timeout. */
  reportProgress(progress: Progress): void;
  /** The plugin's resolved settings (defaults applied; url fields as instance-name → URL maps). */
  settings: Record<string, unknown>;
  /** The instance this call is for, when the plugin has instances configured. */
  instance?: { name: string; url: string };
  log: Log;
}

// deno-lint-ignore no-explicit-any
type AnyObjectSchema = z.ZodObject<any>;

export interface ToolDefinition<
  I extends AnyObjectSchema = AnyObjectSchema,
  O extends z.ZodType = z.ZodType,
> {
  /** snake_case; the agent sees `<plugin>__<name>`. */
  name: string;
  /** Shown to people (side panel, README). Defaults to the name in words. */
  displayName?: string;
  /** What the tool does, for the agent: when to use it and what it returns. */
  description: string;
  /** A `z.object(...)`; it must be expressible as JSON Schema (no transform/pipe/preprocess). */
  input: I;
  /** Optional schema of the result; the result is checked against it in the page. */
  output?: O;
  handle(input: z.output<I>, context: ToolContext): Promise<z.input<O>> | z.input<O>;
}

export interface ReadyContext {
  settings: Record<string, unknown>;
}

export interface PluginDefinition {
  /** Optional; when present it must equal the package.json `hub` field. */
  name?: string;
  displayName?: string;
  description?: string;
  urlPatterns?: string[];
  excludePatterns?: string[];
  configSchema?: ConfigSchema;
  /**
   * Whether the page can run tools now (typically: the user is logged in). Runs in the page; false,
   * an error or no answer within 5 s means "unavailable". Omitted means always ready.
   */
  isReady?(context: ReadyContext): boolean | Promise<boolean>;
  // deno-lint-ignore no-explicit-any
  tools: ToolDefinition<any, any>[];
}

/** Declares a tool; returns it unchanged with its types inferred from the schemas. */
export function defineTool<I extends AnyObjectSchema, O extends z.ZodType = z.ZodUnknown>(
  tool: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return tool;
}

/** Declares a plugin; export the result as the default export of the entry file. */
export function definePlugin<P extends PluginDefinition>(plugin: P): P {
  return plugin;
}
