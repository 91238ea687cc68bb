import { assertEquals } from "../../tests/helpers/assert.ts";
import { capOutput } from "../calls/output_cap.ts";
import { outcomeResult } from "../calls/results.ts";
import { SNAPSHOT_MAX_BYTES } from "../../protocol/browser_methods/dom_limits.ts";
import { MAX_CHARS } from "../../protocol/text_cap.ts";
import { formatResult } from "../../cli/tool/tool.ts";
import { parseWithZod } from "./browser_tool.ts";
import { snapshot } from "./snapshot.ts";

const OUTLINE = '# Shop — http://x/\n- heading "Cart" [level=1] [ref=e1]\n- button "Pay" [ref=e2]';

const value = (fields: Record<string, unknown> = {}) => ({
  tabId: 3,
  url: "http://x/",
  title: "Shop",
  snapshotId: "s4",
  text: OUTLINE,
  truncated: false,
  totalBytes: new TextEncoder().encode(OUTLINE).length,
  ...fields,
});

const context = (input: Record<string, unknown>) => ({
  input,
  now: () => 0,
  saveFile: () => Promise.reject(new Error("no")),
});

Deno.test("browser_snapshot's defaults and limits", () => {
  assertEquals(parseWithZod(snapshot.input, {}), {
    ok: true,
    input: { maxBytes: 20_000, offset: 0, interactiveOnly: false, includeHidden: false },
  });
  assertEquals(parseWithZod(snapshot.input, { maxBytes: SNAPSHOT_MAX_BYTES + 1 }).ok, false);
  assertEquals(parseWithZod(snapshot.input, { ref: "e1", selector: "main" }).ok, false);
  assertEquals(SNAPSHOT_MAX_BYTES <= MAX_CHARS, true, "a whole part passes the output cap");
});

Deno.test("browser_snapshot answers the outline as text and the value as structuredContent", async () => {
  const content = await snapshot.toContent!(value(), context({ offset: 0 }));
  const text = OUTLINE + '\n# snapshotId s4: pass since "s4" to get only what changes after ' +
    "this snapshot";
  assertEquals(content, [{ type: "text", text }]);
  const result = outcomeResult({ ok: true, ...capOutput(value(), content), structured: true });
  assertEquals(result.content, [{ type: "text", text }]);
  assertEquals(result.structuredContent, value());
  assertEquals(snapshot.structured, true);
  // hub tool call prints the outline, not JSON.
  assertEquals(formatResult(result), text);
});

Deno.test("browser_snapshot's text of a cut part says where the rest is", async () => {
  const first = await snapshot.toContent!(
    value({ text: "# Shop — http://x/\n- a\n", truncated: true, nextOffset: 25, totalBytes: 40 }),
    context({ offset: 0 }),
  );
  assertEquals(first, [{
    type: "text",
    text: "# Shop — http://x/\n- a\n# cut at byte 25 of 40: call again with offset 25 for the " +
      'rest\n# snapshotId s4: pass since "s4" to get only what changes after this snapshot',
  }]);
  const rest = await snapshot.toContent!(
    value({ text: "- b\n- c", totalBytes: 40 }),
    context({ offset: 25 }),
  );
  // A later part starts with the header again, and where it starts.
  assertEquals(rest, [{
    type: "text",
    text: "# Shop — http://x/\n# part from byte 25 of 40\n- b\n- c\n" +
      '# snapshotId s4: pass since "s4" to get only what changes after this snapshot',
  }]);
  const odd = await snapshot.toContent!(
    value({ text: "- b", title: 'T\n- button "x"' + "t".repeat(300), totalBytes: 40 }),
    context({ offset: 25 }),
  );
  const header = (odd[0] as { text: string }).text.split("\n")[0];
  assertEquals(header.startsWith('# T - button "x"ttt'), true, "line breaks folded");
  assertEquals(header.includes("…"), true, "a long title is cut");
});

Deno.test("browser_snapshot's largest part is never cut by the output cap", async () => {
  const text = "- text: x\n".repeat(SNAPSHOT_MAX_BYTES / 10);
  const big = value({ text, truncated: true, nextOffset: SNAPSHOT_MAX_BYTES, totalBytes: 400_000 });
  const content = await snapshot.toContent!(big, context({ offset: 0 }));
  assertEquals(content, [{ type: "text", text }]);
  assertEquals(capOutput(big, content).content, content);
});

Deno.test("a tool without structured keeps answering its content only", () => {
  const result = outcomeResult({
    ok: true,
    value: { a: 1 },
    content: [{ type: "text", text: "x" }],
  });
  assertEquals(result.structuredContent, undefined);
});
