/**
 * The safety net under every built-in browser tool's answer: whatever an extension method
 * returns, the text an agent receives is at most MAX_CHARS (protocol/text_cap.ts), cut with the
 * same marker the extension's own caps use. A value whose JSON is too long loses its structured
 * form (the cut text is not JSON); text blocks of custom content are cut one by one; images are
 * left alone (tools cap them by bytes).
 */
import { capText, MAX_CHARS } from "../../protocol/text_cap.ts";
import type { ContentBlock } from "../browser_tools/browser_tool_interface.ts";

const HINT = "The answer was too large for one call: ask for less (a selector, a smaller limit " +
  "or maxLength, a level filter).";

export interface CappedOutput {
  /** The value, or the cut JSON text of it when it was too long. */
  value: unknown;
  content?: ContentBlock[];
}

const cut = (text: string, limit: number) => capText(text, limit, HINT).text;

/** Caps a browser tool's value and content to `limit` characters of text. */
export function capOutput(
  value: unknown,
  content: ContentBlock[] | undefined,
  limit = MAX_CHARS,
): CappedOutput {
  if (content) {
    return {
      value,
      content: content.map((block) =>
        block.type === "text" && block.text.length > limit
          ? { ...block, text: cut(block.text, limit) }
          : block
      ),
    };
  }
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return text.length <= limit ? { value } : { value: cut(text, limit) };
}
