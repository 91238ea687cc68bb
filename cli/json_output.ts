/**
 * What every `--json` option of the CLI writes. Its own module, so that `hub status` and
 * `hub tool` load no package code (cli/plugin/context.ts sets up the package module).
 */
import { visibleJson } from "../protocol/visible_text.ts";

/**
 * `value` as indented JSON with every hidden character in its strings written as `\uXXXX`: the
 * same value, but nothing a plugin or a registry wrote can reorder or hide what a terminal shows.
 */
export function jsonText(value: unknown): string {
  return visibleJson(JSON.stringify(value, null, 2));
}

/** Prints `value` as `jsonText`: what every `--json` option of the CLI writes. */
export function printJson(value: unknown): void {
  console.log(jsonText(value));
}
