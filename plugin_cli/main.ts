/**
 * `hub-plugin` entry point, the developer CLI for plugin authors:
 * `deno run <permissions> plugin_cli/main.ts <args>` behaves like `hub-plugin <args>`.
 */
import { Command, CommanderError } from "commander";
import { SDK_VERSION, VERSION } from "../protocol/version.ts";

export function buildPluginProgram(): Command {
  return new Command("hub-plugin")
    .description(`Build and inspect hub plugins (hub ${VERSION}, plugin SDK ${SDK_VERSION}).`)
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .exitOverride();
}

if (import.meta.main) {
  try {
    await buildPluginProgram().parseAsync(Deno.args, { from: "user" });
  } catch (error) {
    Deno.exit(error instanceof CommanderError ? error.exitCode : 1);
  }
}
