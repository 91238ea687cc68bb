/**
 * browser_snapshot: the outline of a tab's page. Its MCP text is the outline itself (first line
 * `# <title> — <url>`), written for the agent to read; structuredContent is the whole value.
 */
import type { SnapshotResult } from "../../protocol/browser_methods/mod.ts";
import { MAX_CHARS } from "../../protocol/text_cap.ts";
import { outlineHeader } from "../../protocol/browser_methods/outline_header.ts";
import { browserTool } from "./browser_tool.ts";
import type { ContentBlock } from "./browser_tool_interface.ts";

export const snapshot = browserTool({
  name: "browser_snapshot",
  displayName: "Page snapshot",
  description: "Outline a tab's page as an agent reads it: one line per meaningful element, " +
    'indented by depth, like `- button "Send" [ref=e12]` (role, accessible name in quotes, ' +
    'states such as [checked] [disabled] [expanded=false] [level=2] [value="…"] [url="…"]), ' +
    "and `- text: …` for text. It covers every frame of the tab, cross-origin ones included " +
    '(each nested under its `- iframe "…" [ref=f1]` line), and open shadow roots; content ' +
    "hidden from people is left out, names included (includeHidden: true brings it back); a " +
    'frame whose site is off for agents is one line, `- iframe "…" [blocked: site not ' +
    "allowed]`, without its content. Elements an agent can " +
    "act on, headings, landmarks, images, table rows and frames carry a ref: pass it as `ref` " +
    "to browser_click_element, browser_type_text, browser_select_option, browser_hover_element, " +
    "browser_press_key, browser_scroll, browser_wait_for_element, browser_query_elements, " +
    "browser_get_page_text or browser_get_page_html instead of a selector, and a frame's ref " +
    '(e.g. "f1") as their `frame`. A ref works while its element stays in its page; after the ' +
    "page changed it may fail with REF_STALE: take a new snapshot. Use this tool to find what " +
    "to act on; browser_get_page_text to read a page's prose (cheaper for reading); " +
    "browser_query_elements for elements matching a CSS selector (each with a ref). " +
    "interactiveOnly: true answers only the lines with refs and the headings around them (much " +
    "smaller). `since` with the snapshotId of an earlier snapshot of the same page answers " +
    "only the lines added (+), removed (-) or changed (~). `ref` or `selector` outlines one " +
    "element's subtree. An outline over maxBytes (default 20000) is cut at a line and answers " +
    "nextOffset: call again with the same arguments and `offset` set to it for the rest.",
  method: "page.snapshot",
  pageContent: true,
  structured: true,
  toContent: (value, { input }) => Promise.resolve(outlineContent(value, input.offset ?? 0)),
});

/**
 * The outline as one text block, with hub's lines about it. A later part (`offset` > 0) starts with
 * the header line again, `# <title> — <url>` (outlineHeader, as the extension writes it), and
 * where the part starts, so every text's first line is the header. A cut part ends with where the
 * rest is, and every part with the snapshotId for a later `since` (an agent whose client shows it
 * only the text needs it there). Hub's lines are added only when they fit under the output cap
 * (MAX_CHARS), so the cap never cuts the outline itself; structuredContent has all of it anyway.
 * An answer of another shape (an extension of another version) is shown as JSON.
 */
export function outlineContent(value: SnapshotResult, offset = 0): ContentBlock[] {
  if (typeof value?.text !== "string") return [{ type: "text", text: JSON.stringify(value) }];
  const text = value.text;
  const head = offset > 0
    ? `${outlineHeader(value.title, value.url)}\n# part from byte ${offset} of ` +
      `${value.totalBytes}\n`
    : "";
  const notes: string[] = [];
  if (value.truncated && value.nextOffset !== undefined) {
    notes.push(
      `# cut at byte ${value.nextOffset} of ${value.totalBytes}: call again with offset ` +
        `${value.nextOffset} for the rest`,
    );
  }
  if (typeof value.snapshotId === "string") {
    notes.push(
      `# snapshotId ${value.snapshotId}: pass since "${value.snapshotId}" to get only what ` +
        "changes after this snapshot",
    );
  }
  const tail = notes.length === 0
    ? ""
    : (text.endsWith("\n") || text === "" ? "" : "\n") + notes.join("\n");
  const full = head + text + tail;
  return [{ type: "text", text: full.length <= MAX_CHARS ? full : text }];
}
