/**
 * The `hub` command line: commands, options and help. Each command's work lives in its own file, in
 * one folder per group (`server/`: start, stop, status; `plugin/`; `config/`: config, telemetry;
 * `tool/`; `logs/`: logs, audit; `update/`; `doctor/`; `stdio/`: the bridge of `hub start --stdio`),
 * imported when that command runs, so a command loads only what it uses (`hub start` none of the
 * package, doctor or tool code).
 */
import { Command } from "commander";
import { VERSION } from "../protocol/version.ts";
import { runStart, type StartArgs } from "./server/start_args.ts";
import { SETTABLE_KEYS } from "./config/keys.ts";
import { UserError } from "../core/cli/user_error.ts";
import { FATAL_RULE } from "./doctor/report.ts";

type Opts = Record<string, unknown>;

/** Options of the command merged with the global ones (`--port` may come before or after it). */
function opts(cmd: Command): Opts {
  return cmd.optsWithGlobals();
}

export function buildProgram(): Command {
  const program = new Command("hub")
    .description("hub: lets AI agents use your own browser safely, through MCP.")
    .version(VERSION, "-V, --version", "print the hub version")
    .option("--port <number>", "port of the hub (default: HUB_PORT, config port, 9515)")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run "hub --help" for usage)')
    .exitOverride();

  program.command("start")
    .description("start the hub server (foreground unless --background)")
    .option("--background", 'run detached; writes server.pid; stop with "hub stop"')
    .option("--show-config", "print the MCP client configuration and exit")
    .option("--dev", "dev mode: reload rebuilt local plugins and config.json edits (HUB_DEV=1)")
    .option(
      "--stdio",
      "bridge MCP over stdin/stdout to the running hub (for clients that spawn hub)",
    )
    .option("--gateway", "with --stdio: bridge to /mcp/gateway instead of /mcp")
    // The usual start lines never get here: main.ts reads them without commander (start_args.ts).
    .action((_o: Opts, cmd: Command) => runStart(opts(cmd) as StartArgs));

  program.command("stop")
    .description("stop a hub started with --background")
    .action((_o: Opts, cmd: Command) =>
      import("./server/stop.ts").then((m) => m.stopCommand(opts(cmd)))
    );

  // `hub` alone is `hub status`; anything else that is not a command is an error that says so.
  program.allowExcessArguments(true).action((_o: Opts, cmd: Command) => {
    const name = cmd.args[0];
    if (name === undefined) {
      return import("./server/status.ts").then((m) => m.statusCommand(opts(cmd)));
    }
    const known = program.commands.map((c) => c.name()).join(", ");
    throw new UserError(`Unknown command "${name}". Commands: ${known}. See "hub --help".`);
  });

  program.command("status")
    .description("show whether the hub runs, its extension, clients, plugins and tools (default)")
    .option("--json", "print the raw /health JSON")
    .action((_o: Opts, cmd: Command) =>
      import("./server/status.ts").then((m) => m.statusCommand(opts(cmd)))
    );

  addConfigCommands(program);

  addPluginCommands(program);

  addToolCommands(program);

  program.command("audit")
    .description("show recent tool calls (from the running hub, or --file for audit.log)")
    .option("--limit <n>", "how many entries", "20")
    .option("--plugin <name>", "only calls of this plugin (browser for built-in tools)")
    .option("--tool <name>", "only calls of this tool (full name)")
    .option("--since <duration>", "only calls newer than this: 30s, 10m, 2h, 7d")
    .option("--json", "print JSON")
    .option("--file", "read <config dir>/audit.log (survives restarts) instead of the hub")
    .action((_o: Opts, cmd: Command) =>
      import("./logs/audit.ts").then((m) => m.auditCommand(opts(cmd)))
    );

  program.command("logs")
    .description("show the server log (<config dir>/server.log)")
    .option("--lines <n>", "how many recent lines", "50")
    .option("-f, --follow", "keep printing new lines")
    .option(
      "--plugin <name>",
      "only lines of this plugin ([plugin:<name>]), from <config dir>/plugins.log",
    )
    .action((_o: Opts, cmd: Command) =>
      import("./logs/logs.ts").then((m) => m.logsCommand(opts(cmd)))
    );

  program.command("doctor")
    .description(
      "check what hub needs (runtime, browser, config, secret, hub, extension, " +
        "MCP clients, plugins); every problem says its fix",
    )
    .option("--json", "print {version, ok, checks:[{id, title, status, message, fix?}]}")
    .addHelpText("after", `\n${FATAL_RULE}`)
    .action((_o: Opts, cmd: Command) =>
      import("./doctor/doctor.ts").then((m) => m.doctorCommand(opts(cmd)))
    );

  addSetupCommand(program);

  program.command("update")
    .description("install the latest published hub (npm installs; others are told how)")
    .option("--check", "only report whether a newer version is published")
    .action((_o: Opts, cmd: Command) =>
      import("./update/update.ts").then((m) => m.updateCommand(opts(cmd)))
    );

  program.command("telemetry [action]")
    .description("anonymous usage telemetry: status (default), enable or disable", {
      action: "status | enable | disable (docs/telemetry.md lists what is sent)",
    })
    .action((action: string | undefined) =>
      import("./config/telemetry.ts").then((m) => m.telemetryCommand(action))
    );

  return program;
}

function addConfigCommands(program: Command): void {
  const config = program.command("config").description("show and change the hub configuration");
  config.command("show").alias("get")
    .description("show the config (the secret is redacted)")
    .option("--json", "print JSON")
    .option("--show-secret", "print the secret in full")
    .action((_o: Opts, cmd: Command) =>
      import("./config/config.ts").then((m) => m.configShow(opts(cmd)))
    );
  config.command("set <key> [value]")
    .description("set a config value", { key: "one of:\n" + SETTABLE_KEYS.join("\n") })
    .option("-f, --force", "with localPlugins.add: accept a path that does not exist")
    .action((key: string, value: string | undefined, _o: Opts, cmd: Command) =>
      import("./config/config.ts").then((m) => m.configSet(key, value, opts(cmd)))
    );
  config.command("path")
    .description("print the config file path")
    .action(() => import("./config/config.ts").then((m) => m.configPath()));
  config.command("reset")
    .description("delete the config file (recreated with defaults on next start)")
    .option("--confirm", "really do it")
    .action((_o: Opts, cmd: Command) =>
      import("./config/config.ts").then((m) => m.configReset(opts(cmd)))
    );
  config.command("rotate-secret")
    .description("write a new secret and tell the running hub (MCP clients need the new one)")
    .option("--confirm", "really do it")
    .action((_o: Opts, cmd: Command) =>
      import("./config/config.ts").then((m) => m.configRotateSecret(opts(cmd)))
    );
}

function addSetupCommand(program: Command): void {
  program.command("setup [client...]")
    .description(
      "write hub's MCP entry into your MCP clients' settings (no name: the ones found)",
      {
        client: "claude-code, claude-desktop, cursor, vscode, windsurf, gemini, codex",
      },
    )
    .option("--project", "the project's file in this folder (.mcp.json, .vscode/mcp.json, …)")
    .option(
      "--mode <mode>",
      "http (default), gateway, or stdio (for clients that cannot send headers)",
    )
    .option("--name <name>", "the server's name in the client's settings", "hub")
    .option("-y, --yes", "no question: set up every client found")
    .option("--remove", "take hub's entry out again")
    .option("--dry-run", "print the change as a diff; write nothing")
    .option("--json", "print {dryRun, clients:[{client, path, outcome, mode, warning?, error?}]}")
    .option("--follow-symlinks", "write through a link that leads out of your home folder")
    .option(
      "--force",
      "replace an entry with this name that hub did not write; write a file another user owns",
    )
    .action((clients: string[], _o: Opts, cmd: Command) =>
      import("./setup/setup.ts").then((m) => m.setupCommand(clients, opts(cmd)))
    );
}

function addToolCommands(program: Command): void {
  const tool = program.command("tool").description(
    "list, inspect and call tools of the running hub",
  );
  tool.command("list").alias("ls")
    .description("list tools grouped by plugin, with their permission")
    .option("--plugin <name>", "only this plugin (browser for built-in tools)")
    .option("--json", "print the full listing with input schemas")
    .action((_o: Opts, cmd: Command) =>
      import("./tool/tool.ts").then((m) => m.toolList(opts(cmd)))
    );
  tool.command("schema <name>")
    .description("show a tool's description and input JSON Schema")
    .option("--json", "print JSON")
    .action((name: string, _o: Opts, cmd: Command) =>
      import("./tool/tool.ts").then((m) => m.toolSchema(name, opts(cmd)))
    );
  tool.command("call <name> [json]")
    .description(
      "call a tool; result JSON on stdout, errors on stderr (exit 1); waits up to 5 minutes",
      { json: 'arguments as JSON, @file, or - for stdin (e.g. \'{"query":"x"}\')' },
    )
    .option("--params <json>", "arguments (JSON, @file or - for stdin); wins over [json]")
    .option("--instance <name>", "which instance of the plugin to use")
    .option("--tab-id <id>", "run in exactly this tab (see plugin_list_tabs)")
    .action((name: string, json: string | undefined, _o: Opts, cmd: Command) =>
      import("./tool/tool.ts").then((m) => m.toolCall(name, json, opts(cmd)))
    );
}

function addPluginCommands(program: Command): void {
  const plugin = program.command("plugin").description(
    "create plugins; find, install, configure, update and remove plugin packages",
  );
  plugin.command("create [name]")
    .description("scaffold a plugin project in ./<name> (asks for what is missing on a terminal)")
    .option("--domain <domain>", "the web app's domain, e.g. app.example.com")
    .option("--display <name>", "display name (default: from the name)")
    .option("--description <desc>", "one line on what the plugin does")
    .action((name: string | undefined, o: Opts) =>
      import("./plugin/create.ts").then((m) => m.createPluginCommand(name, o))
    );
  addPluginPackageCommands(plugin);
}

/** `hub plugin search|install|update|remove|list|configure`: plugin packages from npm. */
function addPluginPackageCommands(plugin: Command): void {
  const NAME = "a short name (alpha), hub-plugin-<name> or @<scope>/hub-plugin-<name>";
  plugin.command("search [query]")
    .description("search the npm registry for plugin packages (all of them without a query)")
    .option("--json", "print JSON")
    .action((query: string | undefined, _o: Opts, cmd: Command) =>
      import("./plugin/search.ts").then((m) => m.pluginSearchCommand(query, opts(cmd)))
    );
  plugin.command("install <name>").alias("add")
    .description("install a plugin package globally (no install scripts run); it starts off", {
      name: `${NAME}, optionally @<version>; a short name tries @tabhub/ first`,
    })
    .option("--json", "print JSON")
    .action((name: string, _o: Opts, cmd: Command) =>
      import("./plugin/install.ts").then((m) => m.pluginInstallCommand(name, opts(cmd)))
    );
  plugin.command("update [name]")
    .description("install the latest version of a plugin package; no name: list updates")
    .option("--check", "only report whether a newer version is published")
    .option("--json", "print JSON")
    .action((name: string | undefined, _o: Opts, cmd: Command) =>
      import("./plugin/install.ts").then((m) => m.pluginUpdateCommand(name, opts(cmd)))
    );
  plugin.command("remove <name>").alias("rm")
    .description("uninstall a plugin package and drop its localPlugins entries", {
      name: `${NAME}, or the plugin's name`,
    })
    .option("-y, --confirm", "really do it (without it: says what would be removed)")
    .option("--json", "print JSON")
    .action((name: string, _o: Opts, cmd: Command) =>
      import("./plugin/remove.ts").then((m) => m.pluginRemoveCommand(name, opts(cmd)))
    );
  plugin.command("list").alias("ls")
    .description("list plugins: of the running hub, else the ones it would load")
    .option("--json", "print JSON")
    .option("-v, --verbose", "show folders and tool names")
    .action((_o: Opts, cmd: Command) =>
      import("./plugin/list.ts").then((m) => m.pluginListCommand(opts(cmd)))
    );
  plugin.command("configure <name>")
    .description("set a plugin's settings: asks on a terminal, or --set key=value")
    .option(
      "--set <key=value>",
      'a setting (repeatable); "-" clears it; url fields take name=url pairs',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action((name: string, _o: Opts, cmd: Command) =>
      import("./plugin/configure.ts").then((m) => m.pluginConfigureCommand(name, opts(cmd)))
    );
}
