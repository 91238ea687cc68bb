/** `hub tool list | schema | call`: tools of the running hub through its REST API. */
import type { CallToolResult, ListedTool } from "../../server/mod.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { cliClient } from "../../core/client/client_context.ts";
import type { HubClient } from "../../core/client/hub_client.ts";
import { readArguments } from "./arguments.ts";
import { visibleText } from "../../protocol/visible_text.ts";
import { CALL_MAX_MS } from "../../protocol/limits.ts";
import { pageContentLine, unmarkPageContent } from "../../protocol/page_content.ts";
import { jsonText, printJson } from "../json_output.ts";

/** `hub tool call` waits this long: the hub's deadline for one call (CALL_MAX_MS, 5 minutes). */
export const TOOL_CALL_TIMEOUT_MS = CALL_MAX_MS;

interface ToolOptions {
  port?: string;
  plugin?: string;
  json?: boolean;
}

function notRunning(client: HubClient): UserError {
  return new UserError(`hub is not running on port ${client.port}. Start it with "hub start".`);
}

/** The error message of a non-200 REST reply, whatever its shape. */
function replyError(status: number, body: unknown): string {
  const b = body as {
    error?: { code?: string; message?: string };
    structuredContent?: { error?: { code: string; message: string; category?: string } };
  };
  const e = b?.structuredContent?.error ?? b?.error;
  if (e?.message) {
    return visibleText(
      `${e.message} (${
        [e.code, (e as { category?: string }).category].filter(Boolean).join(", ")
      })`,
    );
  }
  return visibleText(`HTTP ${status}: ${typeof body === "string" ? body : JSON.stringify(body)}`);
}

async function fetchTools(client: HubClient, plugin?: string): Promise<ListedTool[]> {
  const query = plugin === undefined ? "" : `?plugin=${encodeURIComponent(plugin)}`;
  const res = await client.request<{ tools: ListedTool[] }>("GET", `/tools${query}`);
  if (!res) throw notRunning(client);
  if (res.status !== 200) throw new UserError(replyError(res.status, res.body));
  return res.body.tools;
}

export async function toolList(options: ToolOptions): Promise<void> {
  const client = await cliClient(options.port);
  const tools = await fetchTools(client, options.plugin);
  if (options.json) return printJson({ tools });
  const groups = Map.groupBy(tools, (t) => t.plugin);
  const width = Math.min(48, Math.max(...tools.map((t) => t.name.length), 4));
  const lines: string[] = [];
  for (const [plugin, list] of groups) {
    lines.push(`${plugin} (${list.length} tool${list.length === 1 ? "" : "s"})`);
    for (const t of list) {
      const text = t.description.replace(/^\[Disabled\] /, "").split("\n")[0];
      lines.push(`  ${t.name.padEnd(width)}  ${t.permission.padEnd(4)}  ${truncate(text, 70)}`);
    }
  }
  if (lines.length === 0) lines.push("No tools.");
  lines.push(
    "",
    "Permissions: off (refused), ask (you confirm in the browser), auto. Details: " +
      '"hub tool schema <name>".',
  );
  // A plugin's words: each line escaped once, so a name or description cannot reorder the line.
  console.log(lines.map((line) => visibleText(line)).join("\n"));
}

/** `text` cut to `max` characters with "…" (never between the halves of a surrogate pair). */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2]) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

export async function toolSchema(name: string, options: ToolOptions): Promise<void> {
  const client = await cliClient(options.port);
  const tools = await fetchTools(client);
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    const near = tools.filter((t) => t.name.includes(name) || name.includes(t.name));
    throw new UserError(visibleText(
      `No tool "${name}".` +
        (near.length > 0 ? ` Did you mean: ${near.map((t) => t.name).join(", ")}?` : "") +
        ' List them with "hub tool list".',
    ));
  }
  if (options.json) return printJson(tool);
  console.log(
    [
      `name:        ${visibleText(tool.name)}`,
      `plugin:      ${visibleText(tool.plugin)}`,
      `permission:  ${tool.permission}`,
      `description: ${visibleText(tool.description, { lines: true })}`,
      "input schema:",
      jsonText(tool.inputSchema),
    ].join("\n"),
  );
}

export interface CallOptions {
  port?: string;
  params?: string;
  instance?: string;
  tabId?: string;
}

export async function toolCall(
  name: string,
  json: string | undefined,
  options: CallOptions,
): Promise<void> {
  const args = await readArguments(json, options);
  const client = await cliClient(options.port);
  const res = await client.request<CallToolResult>(
    "POST",
    `/tools/${encodeURIComponent(name)}/call`,
    { body: { arguments: args }, timeoutMs: TOOL_CALL_TIMEOUT_MS },
  );
  if (!res) throw notRunning(client);
  if (res.status !== 200 || res.body?.isError) {
    throw new UserError(`${name} failed: ${replyError(res.status, res.body)}`);
  }
  const { line, result } = splitPageContent(res.body);
  if (line !== undefined) console.error(visibleText(line));
  console.log(formatResult(result));
}

/**
 * A result read from a page, split: its page-content line (for stderr, so a person or an agent
 * reading the shell still sees where it came from) and the result without the mark (stdout stays
 * the value a script parses, as before the mark). A result without the mark is as it is.
 */
export function splitPageContent(result: CallToolResult): {
  line?: string;
  result: CallToolResult;
} {
  const { origin, result: unmarked } = unmarkPageContent(result);
  return origin === undefined ? { result } : { line: pageContentLine(origin), result: unmarked };
}

/**
 * The result on stdout: a tool's own single text block (one that is not just the JSON of its
 * structured value, such as browser_snapshot's outline) as text; else the structured value as
 * JSON, else the text, else the content list as JSON. Hidden characters are escaped (`\uXXXX`
 * in JSON, the same value; `⟨U+…⟩` in text, line breaks kept), so a plugin's result cannot move
 * the terminal's cursor or reorder what it shows.
 */
export function formatResult(result: CallToolResult): string {
  const content = result.content ?? [];
  const text = content.length === 1 && content[0].type === "text" ? content[0].text : undefined;
  const structured = result.structuredContent;
  if (structured !== undefined && (text === undefined || text === JSON.stringify(structured))) {
    return jsonText(structured);
  }
  if (text !== undefined) return visibleText(text, { lines: true });
  return jsonText(content);
}
