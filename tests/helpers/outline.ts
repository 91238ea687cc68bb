/**
 * Reading browser_snapshot's outline in end-to-end tests: its `- …` lines with their indentation
 * and refs (outlineLines, lineOf, refOf, framePart), a page's frame by URL (frameAt), and the calls
 * for one tab with the snapshot's MCP text checked against its value (tabCalls).
 */
import type { Frame, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { callTool, type E2E } from "./e2e_fixture.ts";
import { eventually } from "./hub_api.ts";
import { ok } from "./tool_replies.ts";
import { unmarked } from "./page_content.ts";
import type { SnapshotResult } from "../../protocol/browser_methods/dom.ts";

/** One outline line: its indentation (spaces), the text after it, and its ref when it has one. */
export interface Line {
  indent: number;
  text: string;
  ref?: string;
}

export const bytes = (text: string) => new TextEncoder().encode(text).length;

/** The `- …` lines of an outline. */
export function outlineLines(outline: string): Line[] {
  return outline.split("\n").filter((l) => /^ *- /.test(l)).map((l) => {
    const text = l.trimStart();
    const ref = /\[ref=([a-z0-9]+)\]$/.exec(text)?.[1];
    return { indent: l.length - text.length, text, ...(ref ? { ref } : {}) };
  });
}

/** The first outline line that matches `pattern`; fails showing the outline. */
export function lineOf(outline: string, pattern: RegExp): Line {
  const line = outlineLines(outline).find((l) => pattern.test(l.text));
  assert(line, `no line matches ${pattern} in:\n${outline}`);
  return line;
}

/** The ref of the first line matching `pattern`. */
export function refOf(outline: string, pattern: RegExp): string {
  const line = lineOf(outline, pattern);
  assert(line.ref, `the line "${line.text}" has no ref`);
  return line.ref;
}

/** The frame part of a ref: `f3` of `f3e5`, "" for the top document. */
export const framePart = (ref: string) => /^(f\d+)?/.exec(ref)![0];

/** The playwright frame whose URL contains `part`, once `selector` is in it. */
export async function frameAt(page: Page, part: string, selector: string): Promise<Frame> {
  let frame: Frame | undefined;
  await eventually(
    () => Promise.resolve(!!(frame = page.frames().find((f) => f.url().includes(part)))),
    () => `no frame at ${part}: ${page.frames().map((f) => f.url())}`,
  );
  await frame!.waitForSelector(selector, { state: "attached" });
  return frame!;
}

/** Calls for one tab: any tool (its value), and browser_snapshot with its MCP text as well. */
export function tabCalls(e2e: E2E, tabId: number) {
  const raw = (tool: string, args: Record<string, unknown> = {}) =>
    callTool(e2e, tool, { tabId, ...args });
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    ok(await raw(tool, args), `${tool} ${JSON.stringify(args)}`);
  const snapshot = async (args: Record<string, unknown> = {}) => {
    const reply = await raw("browser_snapshot", args);
    const value = ok(reply, `browser_snapshot ${JSON.stringify(args)}`);
    const content = unmarked(reply.body).content as { type: string; text: string }[];
    assertEquals(content.length, 1, JSON.stringify(content).slice(0, 500));
    assertEquals(content[0].type, "text");
    // The MCP text is the outline itself, not JSON of the value.
    // A later part (offset) starts with the header line again, then where the part starts.
    const part = args.offset
      ? `# ${value.title} — ${value.url}\n# part from byte ${args.offset} ` +
        `of ${value.totalBytes}\n`
      : "";
    assert(content[0].text.startsWith(part + value.text), content[0].text.slice(0, 500));
    assertEquals(value.tabId, tabId);
    assertMatch(value.snapshotId, /^s\d+$/);
    return value as SnapshotResult;
  };
  return { call, raw, snapshot };
}
