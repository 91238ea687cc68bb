/**
 * Plugin packages on the npm registry, as the hub, the CLI and the side panel describe them: search
 * results, the outcome of an install, update or removal, available updates, and the progress of an
 * operation while npm runs. The `/ws` methods `plugin.search`, `plugin.install`,
 * `plugin.updateFromRegistry`, `plugin.remove`, `plugin.removeBySpecifier`, `plugin.checkUpdates`
 * answer with these (docs/protocol.md), and `hub plugin … --json` prints the same shapes.
 */
import * as z from "zod";

/** Most search results one answer carries. */
export const MAX_SEARCH_RESULTS = 250;

/** One plugin package found on the registry. */
export const packageSummarySchema = z.object({
  /** Package name: `@tabhub/hub-plugin-x`, `hub-plugin-x` or `@scope/hub-plugin-x`. */
  name: z.string(),
  version: z.string(),
  description: z.string().optional(),
  author: z.string().optional(),
  /** Published under the official `@tabhub` scope. */
  official: z.boolean(),
  /** The version installed globally beside hub, if any. */
  installedVersion: z.string().optional(),
});

export const searchResultSchema = z.object({
  query: z.string(),
  packages: z.array(packageSummarySchema).max(MAX_SEARCH_RESULTS),
});

/** What `plugin.install` and `plugin.updateFromRegistry` answer. */
export const installResultSchema = z.object({
  /** The package name the shorthand resolved to. */
  name: z.string(),
  /** The plugin's own name (the tool prefix), from its package. */
  plugin: z.string(),
  version: z.string(),
  /** The version that was installed before, if any. */
  previousVersion: z.string().optional(),
  /** The plugin's URL patterns (`hub plugin install` names them when they cover every site). */
  urlPatterns: z.array(z.string()).optional(),
  /**
   * Programs (`bin`) and manual pages (`man`) the package declares, none of which was linked:
   * plugin packages never put programs on the PATH. Absent when it declares none.
   */
  notLinked: z.object({ bin: z.array(z.string()), man: z.array(z.string()) }).optional(),
});

/** What `plugin.remove` and `plugin.removeBySpecifier` answer. */
export const removeResultSchema = z.object({
  name: z.string(),
  /** Whether a global package was uninstalled. */
  uninstalled: z.boolean(),
  /** `localPlugins` entries removed from config.json because they pointed at this plugin. */
  localPluginsRemoved: z.array(z.string()),
  /**
   * Plugin folders inside a `localPluginDirs` folder that claim the same plugin: hub never
   * deletes folders, so they stay (one of them may serve the plugin, overriding the package that
   * was removed) until someone moves or deletes them.
   */
  foldersKept: z.array(z.string()).optional(),
});

/** An installed plugin package with a newer version on the registry. */
export const availableUpdateSchema = z.object({
  name: z.string(),
  plugin: z.string(),
  installedVersion: z.string(),
  latestVersion: z.string(),
});

/** What `plugin.checkUpdates` answers, and what the background check last found. */
export const updateCheckSchema = z.object({
  /** Milliseconds since the epoch; 0 when no check has run yet. */
  checkedAt: z.number(),
  updates: z.array(availableUpdateSchema),
  /** Why the last check failed, if it did. */
  error: z.string().optional(),
});

export const packageOperationSchema = z.enum([
  "search",
  "install",
  "update",
  "remove",
  "checkUpdates",
]);

/** `plugin.progress` (hub to extension): what a running package operation is doing. */
export const packageProgressSchema = z.object({
  operation: packageOperationSchema,
  /** The package or shorthand the operation is about (absent for search and checkUpdates). */
  name: z.string().optional(),
  /** One short line, such as "Downloading hub-plugin-x 1.2.0 from the registry". */
  message: z.string(),
  /** True on the last message of the operation. */
  done: z.boolean(),
});

export type PackageSummary = z.infer<typeof packageSummarySchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type InstallResult = z.infer<typeof installResultSchema>;
export type RemoveResult = z.infer<typeof removeResultSchema>;
export type AvailableUpdate = z.infer<typeof availableUpdateSchema>;
export type UpdateCheck = z.infer<typeof updateCheckSchema>;
export type PackageOperation = z.infer<typeof packageOperationSchema>;
export type PackageProgress = z.infer<typeof packageProgressSchema>;
