/**
 * Build-time description of a plugin: its tools with JSON Schemas, for `dist/tools.json`. Runs in
 * `hub-plugin build` inside the same bundle as the plugin, so the zod instance is the plugin's own.
 * A schema that JSON Schema cannot express is refused with the tool and field it is in. This is
 * the SDK's second public door (`@tabhub/sdk/describe`), for `hub-plugin`; plugins import
 * `@tabhub/sdk`.
 */
import { z } from "zod";
import type { PluginDefinition, ToolDefinition } from "./plugin.ts";
import type { ToolEntry } from "../protocol/plugin_manifest.ts";

/** zod types whose meaning is lost in JSON Schema (code runs, or no JSON value exists). */
const UNREPRESENTABLE: Record<string, string> = {
  pipe: "a .pipe(), .transform() or z.preprocess()",
  transform: "a .transform()",
  custom: "z.custom()",
  function: "z.function()",
  promise: "z.promise()",
  map: "z.map() (use z.record())",
  set: "z.set() (use z.array())",
  date: "z.date() (use z.string() with an ISO date, e.g. z.iso.datetime())",
  bigint: "z.bigint() (use z.number() or z.string())",
  symbol: "z.symbol()",
  undefined: "z.undefined()",
  void: "z.void()",
  nan: "z.nan()",
};

/**
 * A plugin whose tools cannot be described: a plain Error named `SchemaError`. This door serves
 * hub-plugin, whose build prints the message; nothing catches it by class (docs/decisions/016).
 */
function schemaError(message: string): Error {
  const error = new Error(message);
  error.name = "SchemaError";
  return error;
}

interface Def {
  type: string;
  [key: string]: unknown;
}

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } })?._zod?.def;
}

/** Child schemas of a zod schema with the path segment each one adds. */
function children(def: Def): [string, unknown][] {
  const out: [string, unknown][] = [];
  const shape = def.shape as Record<string, unknown> | undefined;
  if (def.type === "object" && shape) {
    for (const [k, v] of Object.entries(shape)) out.push([k, v]);
  }
  if (def.catchall) out.push(["*", def.catchall]);
  if (def.element) out.push(["[]", def.element]);
  if (def.innerType) out.push(["", def.innerType]);
  if (Array.isArray(def.options)) def.options.forEach((o) => out.push(["", o]));
  if (Array.isArray(def.items)) def.items.forEach((o, i) => out.push([`[${i}]`, o]));
  if (def.rest) out.push(["[]", def.rest]);
  for (const key of ["left", "right", "keyType", "valueType"]) {
    if (def[key]) out.push([key === "valueType" ? "*" : "", def[key]]);
  }
  return out;
}

/** The first unrepresentable part of a schema, as `{ path, what }`. */
export function findUnrepresentable(
  schema: unknown,
  path: string[] = [],
  seen = new Set<unknown>(),
): { path: string; what: string } | undefined {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return undefined;
  seen.add(schema);
  const what = UNREPRESENTABLE[def.type];
  if (what) return { path: path.join(".").replace(/\.\[/g, "[") || "(the whole input)", what };
  const next = def.type === "lazy" && typeof def.getter === "function"
    ? [["", (def.getter as () => unknown)()] as [string, unknown]]
    : children(def);
  for (const [segment, child] of next) {
    const found = findUnrepresentable(child, segment ? [...path, segment] : path, seen);
    if (found) return found;
  }
  return undefined;
}

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "throw" });
  delete (json as Record<string, unknown>).$schema;
  return json as Record<string, unknown>;
}

function words(name: string): string {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// deno-lint-ignore no-explicit-any
function describeTool(tool: ToolDefinition<any, any>): ToolEntry {
  const where = `Tool "${tool?.name}"`;
  if (defOf(tool.input)?.type !== "object") {
    throw schemaError(`${where}: input must be a z.object({...}) (use z.object({}) for none)`);
  }
  for (const [kind, schema] of [["input", tool.input], ["output", tool.output]] as const) {
    const bad = schema && findUnrepresentable(schema);
    if (bad) {
      throw schemaError(
        `${where}: ${kind} field "${bad.path}" uses ${bad.what}, which JSON Schema cannot ` +
          `express. Describe the plain value the agent sends, and convert it inside handle().`,
      );
    }
  }
  let inputSchema: Record<string, unknown>;
  let outputSchema: Record<string, unknown> | undefined;
  try {
    inputSchema = toJsonSchema(tool.input, "input");
    if (tool.output) outputSchema = toJsonSchema(tool.output, "output");
  } catch (error) {
    throw schemaError(
      `${where}: its schema cannot be written as JSON Schema: ${(error as Error).message}`,
    );
  }
  const entry: ToolEntry = {
    name: tool.name,
    displayName: tool.displayName ?? words(tool.name),
    description: tool.description,
    inputSchema,
  };
  if (outputSchema) entry.outputSchema = outputSchema;
  return entry;
}

export interface PluginDescription {
  declared: Partial<Record<keyof PluginDefinition, unknown>>;
  tools: ToolEntry[];
}

/** Describes a plugin definition: what it declares about itself, and its tools. */
export function describePlugin(plugin: PluginDefinition): PluginDescription {
  if (!plugin || typeof plugin !== "object" || !Array.isArray(plugin.tools)) {
    throw schemaError(
      "the entry file must `export default definePlugin({ tools: [...] })`",
    );
  }
  const declared: PluginDescription["declared"] = {};
  const keys = [
    "name",
    "displayName",
    "description",
    "urlPatterns",
    "excludePatterns",
    "configSchema",
  ] as const;
  for (const key of keys) if (plugin[key] !== undefined) declared[key] = plugin[key];
  return { declared, tools: plugin.tools.map(describeTool) };
}
