/**
 * Loads a plugin at build time to learn its tools: bundles the entry together with the SDK's
 * describer, imports the bundle, and returns what the plugin declares.
 */
import { pathToFileURL } from "node:url";
import { CliError } from "../cli/cli_error.ts";
import type { PluginDescription } from "../sdk/_describe.ts";
import { bundle, SDK_DESCRIBE } from "./bundle.ts";
import type { PluginProject } from "./project.ts";

export async function describeProject(project: PluginProject): Promise<PluginDescription> {
  const code = await bundle(
    project.dir,
    [
      `import * as entry from ${JSON.stringify(project.entry)};`,
      `import { describePlugin } from ${JSON.stringify(SDK_DESCRIBE)};`,
      `export const describe = () => describePlugin(entry.default);`,
    ].join("\n"),
    "esm",
  );
  const file = await Deno.makeTempFile({ prefix: "hub-plugin-", suffix: ".mjs" });
  try {
    await Deno.writeTextFile(file, code);
    let mod: { describe(): PluginDescription };
    try {
      mod = await import(pathToFileURL(file).href);
    } catch (error) {
      throw new CliError(
        `Loading ${project.entry} failed: ${(error as Error).message}\n` +
          `(hub-plugin runs the file's top-level code outside the browser to read its tools; ` +
          `touch the page - document, window, fetch - only inside isReady() and handle().)`,
      );
    }
    try {
      return mod.describe();
    } catch (error) {
      throw new CliError(`${project.entry}: ${(error as Error).message}`);
    }
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
