/**
 * The arguments of `hub tool call`: JSON from `--params` (which wins) or the positional argument,
 * each either inline, `@file`, or `-` / `@-` for stdin (for arguments too big for a command line),
 * plus `--instance` and `--tab-id`.
 */
import { UserError } from "../../core/cli/user_error.ts";

export interface ArgumentSources {
  params?: string;
  instance?: string;
  tabId?: string;
}

async function readSource(source: string): Promise<{ text: string; from: string }> {
  if (source === "-" || source === "@-") {
    return { text: await new Response(Deno.stdin.readable).text(), from: "stdin" };
  }
  if (source.startsWith("@")) {
    const path = source.slice(1);
    try {
      return { text: await Deno.readTextFile(path), from: path };
    } catch (error) {
      throw new UserError(`Cannot read arguments from ${path}: ${(error as Error).message}`);
    }
  }
  return { text: source, from: "the command line" };
}

export async function readArguments(
  positional: string | undefined,
  options: ArgumentSources,
): Promise<Record<string, unknown>> {
  const source = options.params ?? positional;
  let args: Record<string, unknown> = {};
  if (source !== undefined) {
    const { text, from } = await readSource(source);
    let value: unknown;
    try {
      value = text.trim() === "" ? {} : JSON.parse(text);
    } catch (error) {
      throw new UserError(
        `The arguments from ${from} are not valid JSON (${(error as Error).message}). ` +
          `Example: hub tool call <name> '{"query": "x"}'`,
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new UserError(`The arguments from ${from} must be a JSON object, like {"query": "x"}.`);
    }
    args = value as Record<string, unknown>;
  }
  if (options.instance !== undefined) args.instance = options.instance;
  if (options.tabId !== undefined) {
    const tabId = Number(options.tabId);
    if (!/^\d+$/.test(options.tabId) || tabId < 1 || !Number.isSafeInteger(tabId)) {
      throw new UserError(
        `--tab-id must be a positive whole number (got "${options.tabId}"); see plugin_list_tabs.`,
      );
    }
    args.tabId = tabId;
  }
  return args;
}
