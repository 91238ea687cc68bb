/**
 * `hub-plugin readme [--dry-run|--check]`: README.md generated from package.json and the last build.
 * The generated part sits between two marker comments; text outside them is the author's and is
 * kept. A README without markers gets the generated part on top, its old text below.
 */
import { readBoundedTextIfExists } from "../core/files/bounded_read.ts";
import { join } from "node:path";
import type { ConfigField } from "../protocol/plugin_manifest.ts";
import { toolName } from "../protocol/call_contract.ts";
import { writeFileAtomic } from "../core/files/atomic_write.ts";
import { UserError } from "../core/cli/user_error.ts";
import { type BuiltPlugin, readBuiltPlugin } from "./built_plugin.ts";
import { fieldsOf } from "./schema_summary.ts";
import { BEGIN, END } from "../core/cli/readme_markers.ts";

/** The most of an existing README.md read before it is merged. */
const MAX_README_BYTES = 1024 * 1024;

export { BEGIN, END };

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n+/g, " ");

function settingDefault(field: ConfigField): string {
  if (field.default === undefined) return "";
  return cell(JSON.stringify(field.default));
}

function settingType(field: ConfigField): string {
  if (field.type === "select") return field.options.map((o) => `\`${o}\``).join(", ");
  if (field.type === "url") return "URL, or instance name → URL";
  return field.type;
}

function settingsSection({ manifest }: BuiltPlugin): string[] {
  const entries = Object.entries(manifest.configSchema ?? {});
  if (entries.length === 0) return [];
  return [
    "## Settings",
    "",
    `Set them in the side panel, or with \`hub config set setting.${manifest.name}.<key> <value>\`.`,
    "",
    "| Setting | Type | Default | Description |",
    "|---|---|---|---|",
    ...entries.map(([key, f]) =>
      `| \`${key}\` (${cell(f.label)}) | ${settingType(f)} | ${settingDefault(f)} | ${
        cell(f.description ?? "")
      } |`
    ),
    "",
  ];
}

function toolsSection({ manifest, tools }: BuiltPlugin): string[] {
  const lines = ["## Tools", ""];
  for (const tool of tools.tools) {
    lines.push(
      `### \`${toolName(manifest.name, tool.name)}\`: ${tool.displayName}`,
      "",
      tool.description,
    );
    const fields = fieldsOf(tool.inputSchema);
    if (fields.length > 0) {
      lines.push("", "| Parameter | Type | Required | Description |", "|---|---|---|---|");
      for (const f of fields) {
        lines.push(
          `| \`${f.name}\` | ${cell(f.type)} | ${f.required ? "yes" : "no"} | ${
            cell(f.description ?? "")
          } |`,
        );
      }
    }
    lines.push("");
  }
  return lines;
}

/** The generated block, markers included. */
export function generatedReadme(plugin: BuiltPlugin): string {
  const { manifest, tools } = plugin;
  const lines = [
    BEGIN,
    `# ${manifest.displayName}`,
    "",
    ...(manifest.description ? [manifest.description, ""] : []),
    `A hub plugin (\`${manifest.name}\`, version ` +
    `${manifest.version}, SDK ${tools.sdkVersion}). Its tools run in browser tabs matching ` +
    manifest.urlPatterns.map((p) => `\`${p}\``).join(", ") +
    (manifest.excludePatterns.length
      ? `, except ${manifest.excludePatterns.map((p) => `\`${p}\``).join(", ")}`
      : "") +
    ", using your logged-in session. Each tool is off until you allow it.",
    "",
    ...settingsSection(plugin),
    ...toolsSection(plugin),
  ];
  return `${lines.join("\n").trimEnd()}\n${END}\n`;
}

/** The README text after regeneration, keeping everything outside the markers. */
export function mergeReadme(current: string | undefined, generated: string): string {
  if (current === undefined || current.trim() === "") return generated;
  const begin = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (begin < 0 || end < begin) return `${generated}\n${current}`;
  const after = current.slice(end + END.length).replace(/^\n/, "");
  return `${current.slice(0, begin)}${generated}${after}`;
}

export async function readmeCommand(
  dir: string,
  options: { dryRun?: boolean; check?: boolean },
): Promise<void> {
  if (options.dryRun && options.check) {
    throw new UserError("Use either --dry-run or --check, not both.");
  }
  const path = join(dir, "README.md");
  const current = await readBoundedTextIfExists(path, { maxBytes: MAX_README_BYTES });
  const next = mergeReadme(current, generatedReadme(await readBuiltPlugin(dir)));
  if (options.dryRun) {
    console.log(next.trimEnd());
    return;
  }
  if (options.check) {
    if (current === next) {
      console.log(`${path} is up to date.`);
      return;
    }
    throw new UserError(
      `${path} is out of date with package.json and dist/tools.json: run "deno task readme" ` +
        `(or "hub-plugin readme").`,
    );
  }
  if (current === next) {
    console.log(`${path} is already up to date.`);
    return;
  }
  await writeFileAtomic(path, next, { mode: 0o644 });
  console.log(`Wrote ${path}.`);
}
