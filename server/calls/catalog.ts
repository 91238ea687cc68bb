/**
 * Every tool a client can call, in one view: plugin tools from the current registry, the built-in
 * browser tools and the plugin-management tools. Finding a tool, checking its arguments and
 * listing tools (with permissions and `[Disabled]` marks) work the same for all three kinds, and
 * every transport uses this one view.
 */
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import { effectivePermission, listedDescription } from "../permissions/effective.ts";
import { noPluginMessage } from "../plugins/registry.ts";
import type { RegisteredPlugin, RegisteredTool, Registry } from "../plugins/registry_interface.ts";
import { stripInjected } from "../plugins/tool_schema.ts";
import { inputJsonSchema, parseWithZod } from "../browser_tools/browser_tool.ts";
import type { RegisteredBrowserTool } from "../browser_tools/browser_tool_interface.ts";
import type { HubTool } from "../management/hub_tool.ts";
import { needsReview } from "../permissions/review.ts";
import { type Validate, ValidatorCache } from "../plugins/validators.ts";
import {
  boundProblems,
  FULL_CHECK_MAX_VALUES,
  hasMoreValues,
} from "../plugins/validation_problems.ts";
import { hubError } from "../../protocol/errors.ts";
import { BROWSER_GROUP, MANAGEMENT_GROUP } from "../../protocol/call_contract.ts";
import type { Catalog, CatalogTool, ListedTool } from "./catalog_interface.ts";

export interface CatalogSource {
  registry(): Registry;
  config(): HubConfig;
  skipPermissions(): boolean;
  browserTools: RegisteredBrowserTool[];
  hubTools: HubTool[];
}

export function createCatalog(source: CatalogSource): Catalog {
  const browser = new Map<string, CatalogTool>(source.browserTools.map((b) => [b.name, {
    kind: "browser",
    name: b.name,
    displayName: b.displayName,
    description: b.description,
    get inputSchema() {
      return b.inputSchema; // derived on first use (inputJsonSchema)
    },
    group: BROWSER_GROUP,
    permissionKey: b.name,
    browser: b,
  }]));
  const hub = new Map<string, CatalogTool>(source.hubTools.map((h) => [h.name, {
    kind: "hub",
    name: h.name,
    displayName: h.displayName,
    description: h.description,
    get inputSchema() {
      return inputJsonSchema(h.input);
    },
    group: MANAGEMENT_GROUP,
    permissionKey: h.name,
    hub: h,
  }]));

  function pluginTool(plugin: RegisteredPlugin, tool: RegisteredTool): CatalogTool {
    return {
      kind: "plugin",
      name: tool.name,
      displayName: tool.displayName,
      description: tool.description,
      inputSchema: tool.inputSchema,
      group: plugin.name,
      permissionKey: tool.baseName,
      plugin,
      tool,
    };
  }

  function permissionOf(config: HubConfig, skip: boolean, tool: CatalogTool): Permission {
    if (tool.kind === "hub") return "auto";
    // A version nobody reviewed runs with nothing, even before the reset reaches config.json.
    if (tool.kind === "plugin" && needsReview(config, tool.plugin)) return "off";
    return effectivePermission(config, tool.group, tool.permissionKey, skip);
  }

  function listed(config: HubConfig, skip: boolean, tool: CatalogTool): ListedTool {
    const permission = permissionOf(config, skip, tool);
    return {
      name: tool.name,
      description: listedDescription(tool.description, permission),
      inputSchema: tool.inputSchema,
      plugin: tool.group,
      permission,
    };
  }

  let cache:
    | {
      registry: Registry;
      config: HubConfig;
      skip: boolean;
      lists: Map<string | undefined, ListedTool[]>;
    }
    | undefined;

  const groups = () => [
    ...source.registry().plugins.map((p) => p.name),
    BROWSER_GROUP,
    MANAGEMENT_GROUP,
  ];

  // Zod reports every bad value of an input; a huge input is first checked against the tool's
  // JSON Schema with ajv, which stops at its first problem.
  const firstProblem = new ValidatorCache();
  const quickChecks = new Map<string, Validate>();
  function quickCheck(tool: CatalogTool): Validate {
    let validate = quickChecks.get(tool.name);
    if (!validate) {
      validate = firstProblem.validator(tool.inputSchema).validate;
      quickChecks.set(tool.name, validate);
    }
    return validate;
  }

  const disabled = (config: HubConfig, tool: CatalogTool) =>
    tool.kind === "browser" && config.disabledBrowserTools.includes(tool.name);

  return {
    find(name) {
      const registry = source.registry();
      const registered = registry.tool(name);
      if (registered) return pluginTool(registry.plugin(registered.plugin)!, registered);
      return browser.get(name) ?? hub.get(name);
    },
    list(group) {
      const config = source.config();
      const skip = source.skipPermissions();
      const registry = source.registry();
      // The listing only changes with the registry or config (both replaced, never mutated).
      if (cache?.registry !== registry || cache.config !== config || cache.skip !== skip) {
        cache = { registry, config, skip, lists: new Map() };
      }
      const cached = cache.lists.get(group);
      if (cached) return cached;
      const out: ListedTool[] = [];
      for (const plugin of registry.plugins) {
        if (group !== undefined && group !== plugin.name) continue;
        for (const tool of plugin.tools) out.push(listed(config, skip, pluginTool(plugin, tool)));
      }
      for (const tool of [...browser.values(), ...hub.values()]) {
        if (group !== undefined && group !== tool.group) continue;
        if (!disabled(config, tool)) out.push(listed(config, skip, tool));
      }
      cache.lists.set(group, out);
      return out;
    },
    permission: (tool) => permissionOf(source.config(), source.skipPermissions(), tool),
    skipPermissions: () => source.skipPermissions(),
    check(tool, args) {
      if (tool.kind === "plugin") {
        const result = tool.tool.validate(args);
        if (!result.valid) return { ok: false, errors: result.errors };
        return { ok: true, ...stripInjected(args) };
      }
      if (hasMoreValues(args, FULL_CHECK_MAX_VALUES)) {
        const quick = quickCheck(tool)(args);
        if (!quick.valid) return { ok: false, errors: quick.errors };
      }
      const input = tool.kind === "browser" ? tool.browser.input : tool.hub.input;
      const parsed = parseWithZod(input, args);
      return parsed.ok
        ? { ok: true, input: parsed.input }
        : { ok: false, errors: boundProblems(parsed.errors) };
    },
    isDisabled: (tool) => disabled(source.config(), tool),
    groups,
    groupError: (group) => groups().includes(group) ? undefined : noPluginMessage(group, groups()),
    allNames: (group) =>
      [...browser.values(), ...hub.values()].filter((t) => t.group === group).map((t) => t.name),
  };
}

/** The tools of one group (all when undefined); an unknown group is a PLUGIN_NOT_FOUND. */
export function listGroup(catalog: Catalog, group?: string): ListedTool[] {
  const unknown = group === undefined ? undefined : catalog.groupError(group);
  if (unknown) throw hubError("PLUGIN_NOT_FOUND", unknown);
  return catalog.list(group);
}
