/**
 * docs/cli.md against the real programs, built in-process (no spawning): every `hub` and
 * `hub-plugin` command has a heading, every option and alias is named in its command's section,
 * and every command heading is a real command. It lives in tests/ because it reads both CLIs.
 */
import type { Command } from "commander";
import { assertEquals } from "./helpers/assert.ts";
import { buildProgram } from "../cli/program.ts";
import { buildPluginProgram } from "../plugin_cli/main.ts";

const DOC = Deno.readTextFileSync(new URL("../docs/cli.md", import.meta.url));

/** Each command of the tree with its path ("hub config set"), root included. */
function commands(root: Command): { path: string; cmd: Command }[] {
  const out: { path: string; cmd: Command }[] = [];
  const walk = (cmd: Command, prefix: string[]) => {
    const path = [...prefix, cmd.name()];
    out.push({ path: path.join(" "), cmd });
    for (const sub of cmd.commands) walk(sub, path);
  };
  walk(root, []);
  return out;
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
