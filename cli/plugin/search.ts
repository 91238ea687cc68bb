/** `hub plugin search [query] [--json]`: plugin packages on the npm registry npm is set up with. */
import type { SearchResult } from "../../protocol/packages.ts";
import { clip } from "../../protocol/clip.ts";
import { visibleText } from "../../protocol/visible_text.ts";
import { pluginCommandContext } from "./context.ts";
import { printJson } from "../json_output.ts";

export async function pluginSearchCommand(query: string | undefined, options: { json?: boolean }) {
  const result = await pluginCommandContext().packages.search(query);
  if (options.json) return printJson(result);
  console.log(formatSearch(result));
}

/**
 * The registry's words (names, descriptions, authors) are escaped once, line by line, before the
 * lines are joined: nothing hidden or reordered, and a line break in one cannot start a line.
 */
export function formatSearch(result: SearchResult): string {
  const about = result.query ? ` matching "${result.query}"` : "";
  if (result.packages.length === 0) {
    return visibleText(
      `No plugin packages${about} on the registry. Plugin packages are named ` +
        `hub-plugin-<name> or @<scope>/hub-plugin-<name>.`,
    );
  }
  const width = Math.min(40, Math.max(...result.packages.map((p) => p.name.length)));
  const lines = result.packages.flatMap((p) => {
    const marks = [
      p.official ? "official" : "",
      p.installedVersion ? `installed ${p.installedVersion}` : "",
    ].filter(Boolean).join(", ");
    const head = `${p.name.padEnd(width)}  ${p.version.padEnd(8)}${marks ? `  (${marks})` : ""}`;
    const about = [p.description, p.author ? `by ${p.author}` : ""].filter(Boolean).join(" — ");
    return about ? [head, `    ${clip(about, 160)}`] : [head];
  });
  const count = result.packages.length;
  return [
    `${count} plugin package${count === 1 ? "" : "s"}${about}:`,
    ...lines,
    "",
    'Install one with "hub plugin install <name>" (a short name tries @tabhub/hub-plugin-<name>, ' +
    "then hub-plugin-<name>).",
  ].map((line) => visibleText(line)).join("\n");
}
