/** `hub-plugin inspect [--json]`: what the last build of a plugin contains. */
import { fieldsOf, type FieldSummary } from "./schema_summary.ts";
import { readBuiltPlugin } from "./built_plugin.ts";
import { toolName } from "../protocol/call_contract.ts";

export interface InspectReport {
  name: string;
  displayName: string;
  version: string;
  sdkVersion: string;
  urlPatterns: string[];
  toolCount: number;
  tools: {
    name: string;
    displayName: string;
    description: string;
    input: FieldSummary[];
    output: FieldSummary[];
  }[];
}

export async function inspectReport(dir: string): Promise<InspectReport> {
  const { manifest, tools } = await readBuiltPlugin(dir);
  return {
    name: manifest.name,
    displayName: manifest.displayName,
    version: manifest.version,
    sdkVersion: tools.sdkVersion,
    urlPatterns: manifest.urlPatterns,
    toolCount: tools.tools.length,
    tools: tools.tools.map((t) => ({
      name: t.name,
      displayName: t.displayName,
      description: t.description,
      input: fieldsOf(t.inputSchema),
      output: fieldsOf(t.outputSchema),
    })),
  };
}

function fieldLines(label: string, fields: FieldSummary[]): string[] {
  if (fields.length === 0) return [`    ${label}: (none)`];
  return [
    `    ${label}:`,
    ...fields.map((f) => `      ${f.name}${f.required ? "" : "?"}: ${f.type}`),
  ];
}

export function formatInspect(report: InspectReport): string {
  const lines = [
    `${report.displayName} (${report.name}) ${report.version}`,
    `  SDK version: ${report.sdkVersion}`,
    `  URL patterns: ${report.urlPatterns.join(", ")}`,
    `  tools: ${report.toolCount}`,
  ];
  for (const tool of report.tools) {
    lines.push("", `  ${toolName(report.name, tool.name)} - ${tool.displayName}`);
    lines.push(`    ${tool.description}`);
    lines.push(...fieldLines("input", tool.input), ...fieldLines("output", tool.output));
  }
  return lines.join("\n");
}

export async function inspectCommand(dir: string, options: { json?: boolean }): Promise<void> {
  const report = await inspectReport(dir);
  console.log(options.json ? JSON.stringify(report, null, 2) : formatInspect(report));
}
