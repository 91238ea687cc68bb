import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { successResult } from "./results.ts";
import { MAX_CHARS } from "../../protocol/text_cap.ts";
import { capOutput } from "./output_cap.ts";

Deno.test("a value whose JSON fits is left as it is (and stays structured)", () => {
  const value = { tabId: 1, text: "x".repeat(100) };
  assertEquals(capOutput(value, undefined), { value });
  assertEquals(successResult(value).structuredContent, value);
  assertEquals(capOutput("plain", undefined, 5), { value: "plain" });
});

Deno.test("a value whose JSON is too long becomes the cut JSON text with a marker", () => {
  const value = { tabId: 1, text: "x".repeat(300) };
  const json = JSON.stringify(value);
  const capped = capOutput(value, undefined, 100);
  assertEquals(typeof capped.value, "string");
  const text = capped.value as string;
  assert(text.startsWith(json.slice(0, 100)));
  assertMatch(text, new RegExp(`…\\[truncated: showed 100 of ${json.length} characters\\. `));
  assertMatch(text, /ask for less/);
  // As an MCP result: one text block, no structuredContent (the text is not JSON any more).
  const result = successResult(capped.value, capped.content);
  assertEquals(result.content, [{ type: "text", text }]);
  assertEquals(result.structuredContent, undefined);
});

Deno.test("the default limit is MAX_CHARS", () => {
  const big = { list: Array.from({ length: 30_000 }, (_, i) => `item ${i}`) };
  const text = capOutput(big, undefined).value as string;
  assert(text.length > MAX_CHARS && text.length < MAX_CHARS + 300, `${text.length}`);
  assertMatch(text, new RegExp(`showed ${MAX_CHARS} of `));
});

Deno.test("text blocks of custom content are cut one by one; images are left alone", () => {
  const image = { type: "image" as const, data: "A".repeat(500), mimeType: "image/png" };
  const short = { type: "text" as const, text: "saved" };
  const long = { type: "text" as const, text: "y".repeat(500) };
  const capped = capOutput({ any: 1 }, [image, short, long], 100);
  assertEquals(capped.value, { any: 1 });
  assertEquals(capped.content![0], image);
  assertEquals(capped.content![1], short);
  const cut = capped.content![2] as { text: string };
  assert(cut.text.startsWith("y".repeat(100) + "\n…[truncated: showed 100 of 500 characters."));
});
