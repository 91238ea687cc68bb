/**
 * What `hub plugin install` and `update` tell a person after npm is done: the sites the plugin runs
 * on when they are every site, the programs and manual pages it declared and hub did not link, why
 * the hub did not load it (a name another source claims), and the permission it really has now.
 * Grants belong to a source (`npm:<package>`) and version, so a grant made for another package of
 * the same plugin name is never reported as this one's.
 */
import type { HubConfig, PluginPermissionConfig } from "../../core/config/schema.ts";
import { grantsAnything, reviewReason } from "../../core/plugin_source/review_rules.ts";
import { describeSource, packageIdentity } from "../../core/plugin_source/source_identity.ts";
import { broadNotice } from "../../protocol/broad_patterns.ts";
import type { FailedPlugin } from "../../protocol/health.ts";
import type { InstallResult } from "../../protocol/packages.ts";
import { ownValue } from "../../protocol/safe_keys.ts";
import { allowHint } from "./context.ts";

/** `Warning: plugin "x" runs on every website you visit (<all_urls>). …`, or undefined. */
export function broadLine(
  plugin: string,
  patterns: readonly string[] | undefined,
): string | undefined {
  const notice = broadNotice(patterns ?? [], `plugin "${plugin}"`);
  return notice && `Warning: ${notice}`;
}

/** The bin and man entries npm was told not to link, or undefined when there were none. */
export function notLinkedLine(result: InstallResult): string | undefined {
  const links = result.notLinked;
  if (!links || links.bin.length + links.man.length === 0) return undefined;
  const parts = [
    ...(links.bin.length ? [`programs (${links.bin.join(", ")})`] : []),
    ...(links.man.length ? [`manual pages (${links.man.join(", ")})`] : []),
  ];
  return `${result.name} declares ${parts.join(" and ")}; none was linked: plugin packages ` +
    "never put programs on your PATH.";
}

function grantsOf(entry: PluginPermissionConfig | undefined): string | undefined {
  if (!entry || !grantsAnything(entry)) return undefined;
  const tools = Object.entries(entry.tools ?? {}).filter(([, p]) => p !== "off");
  const toolText = tools.map(([tool, p]) => `${tool}: ${p}`).join(", ");
  if (entry.permission === "off") return `off, except ${toolText}`;
  return tools.length ? `${entry.permission} (${toolText})` : entry.permission;
}

function sourceText(source: string | undefined, version: string | undefined): string {
  const where = source === undefined ? "an earlier install" : `the ${describeSource(source)}`;
  return version === undefined ? where : `${where} ${version}`;
}

/**
 * Which permission line it is: `none` (nothing granted: how to allow it), `kept` (granted to
 * this very package and version), `unreviewed` (granted with no review recorded) or `other`
 * (granted to another source or version: the hub turns it off).
 */
export type PermissionCase = "none" | "kept" | "unreviewed" | "other";

/**
 * The permission line, and which case it is. After a running hub reloaded, config.json already
 * holds its review decisions (grants of another source or version taken back, a first grant
 * recorded).
 */
export function permissionLine(
  config: HubConfig,
  result: InstallResult,
): { kind: PermissionCase; text: string } {
  const entry = ownValue(config.permissions, result.plugin);
  const grants = grantsOf(entry);
  if (!entry || grants === undefined) return { kind: "none", text: allowHint(result.plugin) };
  if (entry.unboundGrant === true) {
    return {
      kind: "other",
      text: `config.json allows plugin "${result.plugin}" (${grants}), but that grant was made ` +
        "while no single source served the name, so it is not this install's: the hub turns it " +
        `off when it loads this one. Allow it again: hub config set plugin-permission.` +
        `${result.plugin} ask`,
    };
  }
  if (entry.reviewedVersion === undefined) {
    return {
      kind: "unreviewed",
      text: `config.json allows plugin "${result.plugin}" (${grants}) without a review; the ` +
        `hub records ${result.name} ${result.version} as reviewed when it loads it.`,
    };
  }
  // A grant with no recorded source is bound by the hub when it loads the plugin, and only when
  // no other source claims the name: until then it is not this install's.
  const installed = { version: result.version, sourceId: packageIdentity(result.name) };
  if (entry.reviewedSource !== undefined && reviewReason(entry, installed) === undefined) {
    return {
      kind: "kept",
      text: `It keeps the permission you gave ${result.name} ${result.version}: ${grants}.`,
    };
  }
  return {
    kind: "other",
    text: `config.json allows plugin "${result.plugin}" (${grants}) for ` +
      `${sourceText(entry.reviewedSource, entry.reviewedVersion)}, not for this install: the ` +
      "hub turns it off when it loads this one, until it is reviewed (plugin_inspect, " +
      "plugin_mark_reviewed) and allowed again.",
  };
}

/** Why the running hub did not load the package, from its `failedPlugins`. */
export function failedLine(failed: FailedPlugin | undefined): string | undefined {
  return failed && `The hub did not load it: ${failed.error}`;
}
