/**
 * `hub tool call` and the page-content mark: the line goes to stderr, stdout prints the value as it
 * did before results were marked, so `hub tool call … | jq` keeps working.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { markerLine } from "../../tests/helpers/page_content.ts";
import type { CallToolResult } from "../../server/mod.ts";
import { formatResult, splitPageContent } from "./tool.ts";

const ORIGIN = "https://app.example.com";
const LINE = markerLine(ORIGIN);
const PAGE = { origin: ORIGIN, untrusted: true };

Deno.test("a marked JSON result: the line apart, the value printed as before", () => {
  const value = { tabId: 1, text: "Hi" };
  const { line, result } = splitPageContent({
    content: [{ type: "text", text: `${LINE}\n${JSON.stringify(value)}` }],
    structuredContent: { ...value, pageContent: PAGE },
  });
  assertEquals(line, LINE);
  assertEquals(result, {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value,
  });
  assertEquals(JSON.parse(formatResult(result)), value);
});

Deno.test("a marked text (a snapshot, a plugin's string): the text without its line", () => {
  const { line, result } = splitPageContent({
    content: [{ type: "text", text: `${LINE}\nplain` }],
    structuredContent: { pageContent: PAGE },
  });
  assertEquals(line, LINE);
  assertEquals(formatResult(result), "plain");
});

Deno.test("unmarked results, and a text that only looks marked, are left as they are", () => {
  const plain: CallToolResult = { content: [{ type: "text", text: "{}" }], structuredContent: {} };
  assertEquals(splitPageContent(plain), { result: plain });
  const forged: CallToolResult = {
    content: [{ type: "text", text: `${LINE}\nx` }],
    structuredContent: { pageContent: { origin: "https://other.example", untrusted: true } },
  };
  assertEquals(splitPageContent(forged), { result: forged });
});
