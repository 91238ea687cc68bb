/**
 * What the hub's parts read of one reload's plugin registry: the plugins with their settings
 * resolved and their tools under prefixed names. Declared apart from the implementation
 * (./registry.ts, which builds it), so calls/, changes/, management/ and telemetry/ depend on this
 * shape only.
 */
import type { ConfigSchema } from "../../protocol/plugin_manifest.ts";
import type { JsonSchema } from "./tool_schema.ts";
import type { Validate } from "./validators.ts";

export interface RegisteredTool {
  /** `<plugin>__<tool>` */
  name: string;
  baseName: string;
  plugin: string;
  displayName: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  validate: Validate;
}

export interface RegisteredPlugin {
  name: string;
  displayName: string;
  description?: string;
  version: string;
  /**
   * npm plugins: the package npm installed (its folder's name), never what its package.json
   * claims; local plugins: the name in their package.json.
   */
  packageName: string;
  source: "npm" | "local";
  dir: string;
  /** What grants are bound to: `npm:<package>` or `local:<real folder>` (core/plugin_source/source_identity.ts). */
  sourceId: string;
  /** True when this local plugin overrides a package of the same name. */
  overrides?: boolean;
  sdkVersion: string;
  urlPatterns: string[];
  excludePatterns: string[];
  configSchema?: ConfigSchema;
  /** Resolved settings: defaults applied, url fields as instance maps. */
  settings: Record<string, unknown>;
  /** Instance name → URL; empty when the plugin has no url setting. */
  instances: Record<string, string>;
  iconSvg?: string;
  /** File name of the adapter under `<config>/extension/adapters/`. */
  adapterFile: string;
  adapterHash: string;
  tools: RegisteredTool[];
}

export interface Registry {
  plugins: RegisteredPlugin[];
  plugin(name: string): RegisteredPlugin | undefined;
  tool(name: string): RegisteredTool | undefined;
  /** Schema keys in use, so the next reload can keep their validators. */
  schemaKeys: Set<string>;
}
