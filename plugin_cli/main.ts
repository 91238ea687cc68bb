/**
 * `hub-plugin` entry point, the developer CLI for plugin authors:
 * `deno run <permissions> plugin_cli/main.ts <args>` behaves like `hub-plugin <args>`.
 * Commands work on the plugin folder given by `--dir`, else the folder it was started from.
 */
import { type Command, Command as Program } from "commander";
import { resolve } from "node:path";
import { SDK_VERSION, VERSION } from "../protocol/version.ts";
import { runProgram } from "../core/cli/run_program.ts";
import { userCwd } from "../core/client/client_context.ts";
import { buildCommand } from "./build_command.ts";
import { inspectCommand } from "./inspect.ts";
import { readmeCommand } from "./readme.ts";
import { stopBundler } from "./bundle.ts";

type Opts = Record<string, unknown>;

function pluginDir(cmd: Command): string {
  const dir = cmd.optsWithGlobals().dir as string | undefined;
  return resolve(userCwd(), dir ?? ".");
}

export function buildPluginProgram(): Command {
  const program = new Program("hub-plugin")
    .description(`Build and inspect hub plugins (hub ${VERSION}, plugin SDK ${SDK_VERSION}).`)
    .version(VERSION, "-V, --version", "print the version")
    .option("--dir <path>", "the plugin folder (default: the current folder)")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run "hub-plugin --help" for usage)')
    .exitOverride();

  program.command("build")
    .description(
      "write dist/tools.json and dist/adapter.iife.js; register the folder in localPlugins " +
        "on first build; reload a running hub",
    )
    .option("-w, --watch", "rebuild and reload on every change")
    .action((o: Opts, cmd: Command) => buildCommand(pluginDir(cmd), o));

  program.command("inspect")
    .description("show the built plugin: name, version, SDK version, tools and their fields")
    .option("--json", "print JSON")
    .action((o: Opts, cmd: Command) => inspectCommand(pluginDir(cmd), o));

  program.command("readme")
    .description("generate README.md from package.json and the build")
    .option("--dry-run", "print the README instead of writing it")
    .option("--check", "exit 1 when README.md is out of date")
    .action((o: Opts, cmd: Command) => readmeCommand(pluginDir(cmd), o));

  return program;
}

if (import.meta.main) {
  const code = await runProgram(buildPluginProgram(), Deno.args, "hub-plugin");
  await stopBundler();
  Deno.exit(code);
}
