/**
 * Which source serves a plugin name at the moment a person grants it a permission by name (`hub
 * config set plugin-permission.<name>` / `tool-permission.<name>.<tool>`), so the grant is bound
 * to that source and never to one that loads later. With a hub running: the source it serves for
 * the name (its `/health`), matched to the folder on disk; without one: the only source on disk
 * claiming the name. Anything else (not installed, refused, several claimants, unreadable
 * version) is undefined: the grant is then stored unbound.
 */
import { sourceIdentity } from "../../core/plugin_source/source_identity.ts";
import type { ServedIdentity } from "../../core/plugin_source/review_rules.ts";
import { diskSources, type Found } from "../plugin/list.ts";

/** The disk sources claiming `plugin` that a hub serving `served` (or none) would bind to. */
export function servingSource(
  plugin: string,
  sources: Found[],
  served: { name: string; source: "npm" | "local" }[] | undefined,
): Found | undefined {
  const claiming = sources.filter((s) => s.plugin === plugin);
  if (served === undefined) return claiming.length === 1 ? claiming[0] : undefined;
  const loaded = served.filter((p) => p.name === plugin);
  if (loaded.length !== 1) return undefined;
  const matching = claiming.filter((s) => s.source === loaded[0].source);
  return matching.length === 1 ? matching[0] : undefined;
}

/** The identity serving `plugin` now, or undefined when no single source serves it. */
export async function servedIdentity(
  plugin: string,
  port: string | undefined,
): Promise<ServedIdentity | undefined> {
  const { sources, client } = await diskSources(port, () => {});
  const health = await client.health();
  const source = servingSource(plugin, sources, health?.pluginDetails);
  if (!source?.version) return undefined;
  return { version: source.version, sourceId: await sourceIdentity(source) };
}
