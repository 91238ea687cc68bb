import { assertEquals } from "../tests/helpers/assert.ts";
import {
  HUB_PERMISSION_FLAGS,
  PLUGIN_CLI_PERMISSION_FLAGS,
} from "../cli/server/deno_permissions.ts";
import {
  flagDifference,
  flagMismatches,
  permissionFlagsOf,
  readmeInstallCommands,
  readmeMismatches,
  wrapperFlags,
} from "./permission_flags.ts";

const hub = HUB_PERMISSION_FLAGS.join(" ");
const plugin = PLUGIN_CLI_PERMISSION_FLAGS.join(" ");
const TASKS = {
  hub: `deno run ${hub} main.ts`,
  start: `deno run ${hub} main.ts start`,
  "compile:hub": `deno compile ${hub} --include extension/dist/ --output dist/hub main.ts`,
  "hub-plugin": `deno run ${plugin} plugin_cli/main.ts`,
  "compile:hub-plugin": `deno compile ${plugin} --include sdk/ --output x plugin_cli/main.ts`,
};

Deno.test("the permission flags of a command line are its --allow-/--deny- words", () => {
  assertEquals(
    permissionFlagsOf("deno compile -A --include x --deny-net=a.b --allow-read --output y m.ts"),
    ["-A", "--deny-net=a.b", "--allow-read"],
  );
});

Deno.test("identical flags everywhere: no mismatch", () => {
  assertEquals(flagMismatches(TASKS, wrapperFlags()), []);
});

Deno.test("a task or flags.json that differs, or is missing, is named with the difference", () => {
  const { "compile:hub": _gone, ...others } = TASKS;
  const lines = flagMismatches(
    { ...others, start: TASKS.start.replace("--allow-write ", "") },
    {
      hub: HUB_PERMISSION_FLAGS.map((flag) =>
        flag.startsWith("--allow-env=") ? `${flag.replace(",HUB_NPM_ROOT", "")},EXTRA` : flag
      ),
    },
  );
  assertEquals(lines.length, 4);
  assertEquals(lines[0].startsWith('deno.json task "start": has "--allow-env='), true);
  assertEquals(lines[0].endsWith('where cli/server/deno_permissions.ts has "--allow-write"'), true);
  assertEquals(lines[1], 'deno.json task "compile:hub": is missing');
  assertEquals(lines[2], 'flags.json "hub": --allow-env lacks HUB_NPM_ROOT and has extra EXTRA');
  assertEquals(lines[3], 'flags.json "hub-plugin": is missing');
});

Deno.test("flagDifference: equal, reordered, and extra flags", () => {
  assertEquals(flagDifference(["--allow-read"], ["--allow-read"]), undefined);
  assertEquals(
    flagDifference(["--allow-run=b,a"], ["--allow-run=a,b"]),
    "--allow-run lists them in another order",
  );
  assertEquals(
    flagDifference(["--allow-read", "-A"], ["--allow-read"]),
    'has "-A" where cli/server/deno_permissions.ts has "(nothing)"',
  );
});

Deno.test("the README's deno install commands are read and checked", () => {
  const hubFlags = HUB_PERMISSION_FLAGS.join(" \\\n  ");
  const readme = [
    "```sh",
    `deno install --global --name hub --config "$PWD/deno.json" \\\n  ${hubFlags} \\\n  main.ts`,
    "",
    `deno install --global --name hub-plugin \\\n  ${plugin} plugin_cli/main.ts`,
    "```",
  ].join("\n");
  assertEquals(readmeInstallCommands(readme).hub?.endsWith(" main.ts"), true);
  assertEquals(readmeMismatches(readme), []);
  const [line] = readmeMismatches(readme.replace("--allow-write", ""));
  assertEquals(line.startsWith('README.md "deno install --name hub": has "--allow-env=HUB_'), true);
  assertEquals(line.endsWith('…" where cli/server/deno_permissions.ts has "--allow-write"'), true);
  assertEquals(readmeMismatches("no commands").length, 2);
});
