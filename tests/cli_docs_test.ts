/**
 * docs/cli.md against the real programs, built in-process (no spawning): every `hub` and
 * `hub-plugin` command has a heading, every option and alias is named in its command's section,
 * every command heading is a real command, and every option a section names is real (an option of
 * that command, of a command above it or of a subcommand it introduces, or a listed cross-reference).
 * It lives in tests/ because it reads both CLIs.
 */
import type { Command } from "commander";
import { assertEquals } from "./helpers/assert.ts";
import { buildProgram } from "../cli/program.ts";
import { buildPluginProgram } from "../plugin_cli/main.ts";

const DOC = Deno.readTextFileSync(new URL("../docs/cli.md", import.meta.url));

/** Each command of the tree with its path ("hub config set") and the commands above it. */
function commands(root: Command): { path: string; cmd: Command; parents: Command[] }[] {
  const out: { path: string; cmd: Command; parents: Command[] }[] = [];
  const walk = (cmd: Command, prefix: string[], parents: Command[]) => {
    const path = [...prefix, cmd.name()];
    out.push({ path: path.join(" "), cmd, parents });
    for (const sub of cmd.commands) walk(sub, path, [...parents, cmd]);
  };
  walk(root, [], []);
  return out;
}

/**
 * Options a section may name although its command has none of that name, each with why: the
 * section points at another command's option.
 */
const CROSS_REFERENCES: Record<string, string[]> = {
  "hub stop": ["--background"], // stops a hub that `hub start --background` started
};

/** Each flag (`--x`, `-x`) a text names, once. */
export function flagsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w-])(--?[a-zA-Z][\w-]*)/g)].map((m) => m[1]))];
}

/**
 * The flags a section names that are no option of its command, of a command above it (their
 * options, `-h`/`--help` and `-V`/`--version` included) or of a subcommand it introduces, and are
 * not an allowed cross-reference.
 */
export function unknownInSection(
  cmd: Command,
  parents: Command[],
  section: string,
  crossReferences: string[] = [],
): string[] {
  const descendants = (c: Command): Command[] => c.commands.flatMap((s) => [s, ...descendants(s)]);
  const real = new Set<string>(["-h", "--help", ...crossReferences]);
  for (const c of [...parents, cmd, ...descendants(cmd)]) {
    for (const option of c.options) {
      for (const flag of [option.long, option.short]) if (flag) real.add(flag);
    }
  }
  return flagsIn(section).filter((flag) => !real.has(flag));
}

/** The sections of a page whose headings are one code span: "## `hub start`" → "hub start". */
export function commandSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  for (const line of markdown.split("\n")) {
    const heading = line.match(/^#{1,6} `([^`]+)`\s*$/);
    if (heading) {
      current = heading[1];
      sections.set(current, "");
    } else if (/^#{1,6} /.test(line)) {
      current = undefined;
    } else if (current !== undefined) {
      sections.set(current, sections.get(current) + line + "\n");
    }
  }
  return sections;
}

/** What a section must name for its command: each option's flags, aliases, arguments. */
export function missingFromSection(cmd: Command, section: string): string[] {
  const missing: string[] = [];
  for (const option of cmd.options) {
    for (const flag of [option.long, option.short]) {
      if (flag && !new RegExp(`(^|[^\\w-])${flag}(?![\\w-])`).test(section)) missing.push(flag);
    }
  }
  for (const alias of cmd.aliases()) {
    if (!section.includes(`\`${alias}\``)) missing.push(`alias ${alias}`);
  }
  for (const arg of cmd.registeredArguments) {
    if (!section.includes(`<${arg.name()}>`) && !section.includes(`[${arg.name()}]`)) {
      missing.push(`argument ${arg.name()}`);
    }
  }
  return missing;
}

const all = [...commands(buildProgram()), ...commands(buildPluginProgram())];
const sections = commandSections(DOC);

Deno.test("docs/cli.md has a section for every hub and hub-plugin command", () => {
  assertEquals(all.map((c) => c.path).filter((path) => !sections.has(path)), []);
});

Deno.test("every command heading in docs/cli.md is a real command", () => {
  const real = new Set(all.map((c) => c.path));
  assertEquals([...sections.keys()].filter((heading) => !real.has(heading)), []);
});

Deno.test("each command's section names all its options, aliases and arguments", () => {
  const gaps = all.flatMap(({ path, cmd }) =>
    missingFromSection(cmd, sections.get(path) ?? "").map((m) => `${path}: ${m}`)
  );
  assertEquals(gaps, []);
});

Deno.test("every option a command's section names exists in that command's --help", () => {
  const stale = all.flatMap(({ path, cmd, parents }) =>
    unknownInSection(cmd, parents, sections.get(path) ?? "", CROSS_REFERENCES[path])
      .map((flag) => `${path}: ${flag}`)
  );
  assertEquals(stale, []);
  for (const [path, flags] of Object.entries(CROSS_REFERENCES)) {
    const { cmd, parents } = all.find((c) => c.path === path)!;
    assertEquals(unknownInSection(cmd, parents, flags.join(" ")), flags, `${path} needs them`);
  }
});

Deno.test("docs/cli.md has no line over 400 characters and no table", () => {
  const lines = DOC.split("\n");
  assertEquals(lines.filter((l) => l.length > 400), []);
  assertEquals(lines.filter((l) => l.startsWith("|")), []);
});

Deno.test("the checks catch a missing option, alias or argument and a made-up heading", () => {
  const install = all.find((c) => c.path === "hub plugin install")!.cmd;
  assertEquals(missingFromSection(install, "`hub plugin install`"), [
    "--json",
    "alias add",
    "argument name",
  ]);
  assertEquals(missingFromSection(install, "`add` <name> --json"), []);
  assertEquals(missingFromSection(install, "`add` <name> --jsonl"), ["--json"]);
  assertEquals([...commandSections("## `hub nope`\ntext\n## Other\n").keys()], ["hub nope"]);
});

Deno.test("the reverse check catches an option that does not exist and allows the real ones", () => {
  const find = (path: string) => all.find((c) => c.path === path)!;
  const install = find("hub plugin install");
  const text = "`add` <name> --json, -h, --port 9515 (from hub), --jsonx, -z, --no-json, no-dash";
  assertEquals(unknownInSection(install.cmd, install.parents, text), [
    "--jsonx",
    "-z",
    "--no-json",
  ]);
  const config = find("hub config");
  assertEquals(unknownInSection(config.cmd, config.parents, "`reset --confirm`"), []);
  assertEquals(unknownInSection(config.cmd, config.parents, "`--confirmed`"), ["--confirmed"]);
  assertEquals(flagsIn("a -32000 code, non-interactive, `--dev`, -V"), ["--dev", "-V"]);
});
