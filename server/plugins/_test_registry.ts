/** Registry entries for the server's unit tests: a plugin and a tool with every field filled. */
import type { RegisteredPlugin, RegisteredTool } from "./registry_interface.ts";
import { toolName } from "../../protocol/call_contract.ts";
import { packageIdentity, packageOfFolder } from "../../core/plugin_source/source_identity.ts";

/** A local plugin `name` at `/plugins/<name>`, version 1.0.0, matching `https://<name>.test/*`. */
export function registeredPlugin(
  name: string,
  fields: Partial<RegisteredPlugin> = {},
): RegisteredPlugin {
  const dir = fields.dir ?? `/plugins/${name}`; // no such folder: its path is its real path
  return {
    name,
    displayName: name[0].toUpperCase() + name.slice(1),
    version: "1.0.0",
    packageName: `hub-plugin-${name}`,
    source: "local",
    dir: `/plugins/${name}`,
    sdkVersion: "0.1.0",
    urlPatterns: [`https://${name}.test/*`],
    excludePatterns: [],
    settings: {},
    instances: {},
    adapterFile: `${name}-1.js`,
    adapterHash: "1",
    tools: [],
    ...fields,
    sourceId: fields.sourceId ??
      (fields.source === "npm" ? packageIdentity(packageOfFolder(dir)) : `local:${dir}`),
  };
}

/** A tool `<plugin>__<baseName>` that accepts any input. */
export function registeredTool(
  plugin: string,
  baseName: string,
  fields: Partial<RegisteredTool> = {},
): RegisteredTool {
  return {
    name: toolName(plugin, baseName),
    baseName,
    plugin,
    displayName: baseName,
    description: `${baseName} tool`,
    inputSchema: { type: "object", properties: {} },
    validate: () => ({ valid: true, errors: [] }),
    ...fields,
  };
}
