/**
 * The permission flags of every way hub is run, checked against the one source,
 * cli/server/deno_permissions.ts: the deno.json tasks (`hub`, `start`, `hub-plugin`), the compile tasks, and
 * the `flags.json` the npm package's launchers read.
 */
import {
  HUB_PERMISSION_FLAGS,
  PLUGIN_CLI_PERMISSION_FLAGS,
} from "../cli/server/deno_permissions.ts";

/** The content of the npm package's `flags.json`: the flags each launcher passes to `deno run`. */
export interface WrapperFlags {
  hub: string[];
  "hub-plugin": string[];
}

export function wrapperFlags(): WrapperFlags {
  return { hub: [...HUB_PERMISSION_FLAGS], "hub-plugin": [...PLUGIN_CLI_PERMISSION_FLAGS] };
}

/** The deno.json tasks that run each program, by the program they run. */
export const TASKS_OF: Record<keyof WrapperFlags, string[]> = {
  hub: ["hub", "start", "compile:hub"],
  "hub-plugin": ["hub-plugin", "compile:hub-plugin"],
};

/**
 * The run flags on a deno command line that cli/server/deno_permissions.ts owns: every `--allow-*` /
 * `--deny-*` word and `--quiet` / `-q`, in order.
 */
export function permissionFlagsOf(command: string): string[] {
  return command.split(/\s+/).filter((word) =>
    word === "-A" || word === "--quiet" || word === "-q" ||
    /^--(allow|deny)-[a-z-]+(=|$)/.test(word)
  );
}

const MAX_SHOWN = 300;
const clipped = (text: string) => text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;

/** How `got` differs from `want`, at the first flag that differs; undefined when equal. */
export function flagDifference(got: string[], want: string[]): string | undefined {
  const i = [...Array(Math.max(got.length, want.length)).keys()].find((k) => got[k] !== want[k]);
  if (i === undefined) return undefined;
  const [gotName, gotList] = (got[i] ?? "").split("=", 2);
  const [wantName, wantList] = (want[i] ?? "").split("=", 2);
  if (gotName === wantName && gotList !== undefined && wantList !== undefined) {
    const g = gotList.split(","), w = wantList.split(",");
    const lacks = w.filter((x) => !g.includes(x)), extra = g.filter((x) => !w.includes(x));
    const parts = [
      lacks.length ? `lacks ${lacks.join(",")}` : "",
      extra.length ? `has extra ${extra.join(",")}` : "",
    ].filter(Boolean);
    return clipped(`${wantName} ${parts.join(" and ") || "lists them in another order"}`);
  }
  const flag = (f: string | undefined) =>
    f === undefined ? "(nothing)" : f.length > 100 ? `${f.slice(0, 100)}…` : f;
  return `has "${flag(got[i])}" where cli/server/deno_permissions.ts has "${flag(want[i])}"`;
}

/**
 * One line per target whose permission flags differ from cli/server/deno_permissions.ts (empty when all
 * agree). `wrapper` is a built package's `flags.json`, when there is one to check.
 */
export function flagMismatches(
  tasks: Record<string, string>,
  wrapper?: Partial<WrapperFlags>,
): string[] {
  const expected = wrapperFlags();
  const lines: string[] = [];
  const compare = (target: string, got: string[] | undefined, want: string[]) => {
    const difference = got === undefined ? "is missing" : flagDifference(got, want);
    if (difference) lines.push(`${target}: ${difference}`);
  };
  for (const program of Object.keys(TASKS_OF) as (keyof WrapperFlags)[]) {
    for (const task of TASKS_OF[program]) {
      const command = tasks[task];
      compare(
        `deno.json task "${task}"`,
        command === undefined ? undefined : permissionFlagsOf(command),
        expected[program],
      );
    }
    if (wrapper) compare(`flags.json "${program}"`, wrapper[program], expected[program]);
  }
  return lines;
}

/**
 * The `deno install` commands of a README, by the program they install (`--name hub`,
 * `--name hub-plugin`), each joined into one line as the shell joins it.
 */
export function readmeInstallCommands(
  markdown: string,
): Partial<Record<keyof WrapperFlags, string>> {
  // As the shell reads it: a backslash before a newline joins the lines (a line that goes on at
  // column 0 continues the word, so a long flag can be split).
  const joined = markdown.replace(/\\\n/g, "");
  const commands: Partial<Record<keyof WrapperFlags, string>> = {};
  for (const line of joined.split("\n")) {
    const name = /^deno install .*--name (\S+)/.exec(line.trim())?.[1];
    if (name === "hub" || name === "hub-plugin") commands[name] = line.trim();
  }
  return commands;
}

/** One line for each `deno install` command of the README whose flags differ (or that is gone). */
export function readmeMismatches(markdown: string): string[] {
  const commands = readmeInstallCommands(markdown);
  const expected = wrapperFlags();
  return (Object.keys(expected) as (keyof WrapperFlags)[]).flatMap((program) => {
    const command = commands[program];
    const target = `README.md "deno install --name ${program}"`;
    const difference = command === undefined
      ? "is missing"
      : flagDifference(permissionFlagsOf(command), expected[program]);
    return difference ? [`${target}: ${difference}`] : [];
  });
}
