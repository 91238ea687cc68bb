/**
 * The files a built plugin is made of, as the hub and `hub-plugin` read them: the `hub` field of
 * `package.json` (the plugin's manifest) and `dist/tools.json` (its tools as JSON Schemas).
 * Validation errors name the field and say what a valid value looks like.
 */
import * as z from "zod";
import { matchPatternError } from "./match_pattern.ts";
import { BROWSER_GROUP, MANAGEMENT_GROUP, toolName } from "./call_contract.ts";
import { reservedKeyError } from "./safe_keys.ts";

export const PLUGIN_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** `browser`/`extension` name built-in tools; `hub` groups the plugin-management tools. */
export const RESERVED_PLUGIN_NAMES = [BROWSER_GROUP, "extension", MANAGEMENT_GROUP] as const;
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
/** MCP clients commonly cap tool names at 64 characters; `<plugin>__<tool>` must fit. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** Names the hub adds to every plugin tool's input; a tool may not declare them itself. */
export const INJECTED_PARAMETERS = ["tabId", "instance"] as const;
export const DEFAULT_ENTRY = "src/index.ts";
export const TOOLS_FILE = "dist/tools.json";
export const ADAPTER_FILE = "dist/adapter.iife.js";

/** Why a plugin name is not acceptable, or undefined when it is. */
export function pluginNameError(name: string): string | undefined {
  if ((RESERVED_PLUGIN_NAMES as readonly string[]).includes(name)) {
    return `"${name}" is reserved for hub's built-in tools; choose another plugin name`;
  }
  const reservedKey = reservedKeyError(name, "plugin");
  if (reservedKey) return reservedKey;
  if (!PLUGIN_NAME_PATTERN.test(name)) {
    return `"${name}" is not a valid plugin name: use lowercase letters and digits, ` +
      `with single hyphens between words (for example "my-app")`;
  }
  return undefined;
}

const label = z.string().min(1, "needs a label shown to the user");
const description = z.string().optional();
const instanceMap = z.record(z.string(), z.string());

export const configFieldSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("url"),
    label,
    description,
    required: z.boolean().optional(),
    default: z.union([z.string(), instanceMap]).optional(),
  }),
  z.strictObject({
    type: z.literal("select"),
    label,
    description,
    options: z.array(z.string().min(1)).min(1, "needs at least one option"),
    default: z.string().optional(),
  }).refine((f) => f.default === undefined || f.options.includes(f.default), {
    message: "default must be one of the options",
    path: ["default"],
  }),
  z.strictObject({
    type: z.literal("boolean"),
    label,
    description,
    default: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal("number"),
    label,
    description,
    min: z.number().optional(),
    max: z.number().optional(),
    integer: z.boolean().optional(),
    default: z.number().optional(),
  }),
], { error: 'type must be one of "url", "select", "boolean", "number"' });
export type ConfigField = z.infer<typeof configFieldSchema>;
export type ConfigSchema = Record<string, ConfigField>;

const SETTING_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
const matchPattern = z.string().superRefine((value, ctx) => {
  const problem = matchPatternError(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const hubFieldSchema = z.object({
  name: z.string().optional(),
  displayName: z.string().min(1).max(80).optional(),
  description: z.string().max(1000).optional(),
  urlPatterns: z.array(matchPattern, {
    error: (issue) =>
      issue.input === undefined
        ? 'is required: the tabs the tools run in, like ["*://example.com/*"]'
        : 'must be a list of match patterns, like ["*://example.com/*"]',
  }).min(1, 'needs at least one pattern, like "*://example.com/*"'),
  excludePatterns: z.array(matchPattern).default([]),
  configSchema: z.record(z.string(), configFieldSchema).superRefine((fields, ctx) => {
    for (const key of Object.keys(fields)) {
      const reserved = reservedKeyError(key, "setting");
      if (SETTING_KEY.test(key) && !reserved) continue;
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: reserved ?? "setting keys are letters, digits and _ (like apiUrl)",
      });
    }
  }).optional(),
  icon: z.string().min(1).optional(),
  entry: z.string().min(1).optional(),
});
export type HubField = z.infer<typeof hubFieldSchema>;
export const HUB_FIELD_KEYS = Object.keys(hubFieldSchema.shape);

/** A plugin's identity and manifest, resolved from its `package.json`. */
export interface PluginManifest extends HubField {
  /** The plugin's short name (`hub.name`, else the package name without scope and `hub-plugin-`). */
  name: string;
  displayName: string;
  packageName: string;
  version: string;
  excludePatterns: string[];
}

/** The short plugin name a package name stands for: `@x/hub-plugin-foo` → `foo`. */
export function pluginNameFromPackage(packageName: string): string {
  const bare = packageName.replace(/^@[^/]+\//, "");
  return bare.startsWith("hub-plugin-") ? bare.slice("hub-plugin-".length) : bare;
}

/** A plugin name in words: `my-app` → `My App`. */
export function titleCase(name: string): string {
  return name.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

export function formatIssues(error: z.ZodError, prefix: string): string {
  return error.issues.map((issue) => {
    const where = [prefix, ...issue.path].filter((p) => p !== "").join(".");
    return `${where}: ${issue.message}`;
  }).join("; ");
}

/**
 * Reads the manifest out of a parsed `package.json`. Throws an Error listing every problem;
 * the caller adds which file it was.
 */
export function parsePluginPackage(pkg: unknown): PluginManifest {
  if (typeof pkg !== "object" || pkg === null || Array.isArray(pkg)) {
    throw new Error("package.json must hold a JSON object");
  }
  const p = pkg as Record<string, unknown>;
  if (typeof p.name !== "string" || p.name === "") throw new Error('package.json has no "name"');
  if (typeof p.version !== "string" || p.version === "") {
    throw new Error('package.json has no "version" (for example "0.1.0")');
  }
  if (p.hub === undefined) {
    throw new Error('package.json has no "hub" field, so it is not a hub plugin');
  }
  const parsed = hubFieldSchema.safeParse(p.hub);
  if (!parsed.success) throw new Error(formatIssues(parsed.error, "hub"));
  const hub = parsed.data;
  const name = hub.name ?? pluginNameFromPackage(p.name);
  const nameProblem = pluginNameError(name);
  if (nameProblem) {
    throw new Error(
      `${nameProblem}${hub.name ? " (hub.name)" : ` (from package name "${p.name}")`}`,
    );
  }
  return {
    ...hub,
    name,
    displayName: hub.displayName ?? titleCase(name),
    packageName: p.name,
    version: p.version,
  };
}

/** `hub` keys the manifest does not know (a typo such as `urlPattern`); `hub-plugin` refuses them. */
export function unknownHubKeys(pkg: Record<string, unknown>): string[] {
  const hub = pkg.hub;
  if (typeof hub !== "object" || hub === null) return [];
  return Object.keys(hub).filter((k) => !HUB_FIELD_KEYS.includes(k));
}

const jsonSchemaObject = z.record(z.string(), z.unknown());

export const toolEntrySchema = z.object({
  name: z.string().regex(TOOL_NAME_PATTERN, "tool names are snake_case, like get_items"),
  displayName: z.string().min(1),
  description: z.string().min(1),
  inputSchema: jsonSchemaObject.refine((s) => s.type === "object", {
    message: 'an input schema must be of type "object"',
  }),
  outputSchema: jsonSchemaObject.optional(),
});
export type ToolEntry = z.infer<typeof toolEntrySchema>;

/**
 * The adapter contract a build speaks (protocol/adapter.ts), written into `dist/tools.json` by
 * `hub-plugin build`. 2: the private door. Builds without it (1) handed calls to the page through
 * window events that any page script could read and answer, so the hub refuses them.
 */
export const ADAPTER_CONTRACT = 2;

/** `dist/tools.json`, written by `hub-plugin build`. */
export const toolsFileSchema = z.object({
  sdkVersion: z.string().min(1),
  adapterContract: z.number().int().optional(),
  plugin: z.string().min(1),
  version: z.string().min(1),
  tools: z.array(toolEntrySchema),
});
export type ToolsFile = z.infer<typeof toolsFileSchema>;

export function parseToolsFile(value: unknown): ToolsFile {
  const parsed = toolsFileSchema.safeParse(value);
  if (!parsed.success) throw new Error(formatIssues(parsed.error, ""));
  return parsed.data;
}

/**
 * Why a build's adapter cannot be used by this hub, or undefined: one built for another adapter
 * contract (an older hub-plugin's adapter would let page scripts read and answer its calls).
 */
export function adapterContractProblem(tools: ToolsFile): string | undefined {
  const contract = tools.adapterContract ?? 1;
  if (contract === ADAPTER_CONTRACT) return undefined;
  return contract < ADAPTER_CONTRACT
    ? `its adapter was built by an older hub-plugin, whose hand-over to the page any page ` +
      `script could read and answer`
    : `its adapter was built for a newer hub (adapter contract ${contract}, this hub speaks ` +
      `${ADAPTER_CONTRACT})`;
}

/**
 * The first problem of a plugin's tool list, or undefined: names snake_case, unique and short
 * enough once prefixed, a description, and no field named like an injected parameter. Checked by
 * `hub-plugin build` and again by the hub when it loads a build.
 */
export function toolListProblem(plugin: string, tools: ToolEntry[]): string | undefined {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (typeof tool.name !== "string" || !TOOL_NAME_PATTERN.test(tool.name)) {
      return `Tool name ${JSON.stringify(tool.name)} is not snake_case (for example "list_items").`;
    }
    const reservedName = reservedKeyError(tool.name, "tool");
    if (reservedName) return `${reservedName}.`;
    if (seen.has(tool.name)) return `Two tools are named "${tool.name}".`;
    seen.add(tool.name);
    const full = toolName(plugin, tool.name);
    if (full.length > MAX_TOOL_NAME_LENGTH) {
      return `Tool "${full}" is ${full.length} characters; agents accept at most ` +
        `${MAX_TOOL_NAME_LENGTH}. Shorten the tool or plugin name.`;
    }
    if (typeof tool.description !== "string" || tool.description.trim() === "") {
      return `Tool "${tool.name}" needs a description telling the agent what it does.`;
    }
    const props = (tool.inputSchema?.properties ?? {}) as Record<string, unknown>;
    const reserved = INJECTED_PARAMETERS.find((name) => name in props);
    if (reserved) {
      return `Tool "${tool.name}": input field "${reserved}" is reserved; hub adds it to every ` +
        `tool. Rename the field.`;
    }
  }
  return undefined;
}
