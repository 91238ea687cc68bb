/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import {
  baseToolName,
  charCount,
  countdown,
  countdownWords,
  duration,
  FOLD_CHARS,
  foldSummary,
  jsonText,
  plural,
  PREVIEW_CHARS,
  previewOf,
  relativeTime,
  showParameters,
  showValue,
} from "./format.ts";

Deno.test("showValue: short strings as text, other values as JSON, nothing folded", () => {
  const same = (kind: "text" | "json", text: string) => ({ kind, text, full: text });
  assertEquals(showValue("hello"), same("text", "hello"));
  assertEquals(showValue(3), same("json", "3"));
  assertEquals(showValue(null), same("json", "null"));
  assertEquals(showValue(true), same("json", "true"));
  assertEquals(showValue(["a", "b"]), same("json", '["a","b"]'));
  assertEquals(showValue({ a: 1 }), same("json", '{"a":1}'));
});

Deno.test("showValue: long strings fold behind a preview that ends in an ellipsis", () => {
  const long = "x".repeat(FOLD_CHARS + 1);
  const shown = showValue(long);
  assertEquals(shown.full, long);
  assertEquals(shown.preview, "x".repeat(PREVIEW_CHARS) + "…");
  assertEquals(showValue("x".repeat(FOLD_CHARS)).preview, undefined);
});

Deno.test("showValue: tall text folds to its first lines", () => {
  const text = ["1", "2", "3", "4", "5", "6", "7"].join("\n");
  assertEquals(showValue(text).preview, "1\n2\n3…");
});

Deno.test("showValue: larger objects are pretty JSON, folded when long", () => {
  const value = { state: "open", labels: ["bug", "ui"], assignee: { login: "ada", id: 1 } };
  const shown = showValue(value);
  assertEquals(shown.full, JSON.stringify(value, null, 2));
  assert(shown.preview?.startsWith('{\n  "state": "open",'), shown.preview);
  assert(shown.preview?.endsWith("…"));
});

Deno.test("jsonText: describes what JSON cannot hold instead of throwing", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assertEquals(jsonText(cyclic), "[object Object]");
  assertEquals(jsonText(undefined), "undefined");
});

Deno.test("showParameters keeps the caller's order", () => {
  const shown = showParameters({ b: 1, a: "x" });
  assertEquals(shown.map((p) => p.key), ["b", "a"]);
  assertEquals(showParameters({}), []);
});

Deno.test("previewOf leaves short text alone", () => {
  assertEquals(previewOf("short"), "short");
});

Deno.test("charCount groups thousands", () => {
  assertEquals(charCount("x".repeat(1234)), "1,234 chars");
});

Deno.test("countdown: minutes and seconds left, rounded up, never negative", () => {
  const now = 1_000_000;
  assertEquals(countdown(now + 299_000, now), "4:59");
  assertEquals(countdown(now + 59_001, now), "1:00");
  assertEquals(countdown(now + 9_000, now), "0:09");
  assertEquals(countdown(now - 5_000, now), "0:00");
  assertEquals(countdownWords(now + 61_000, now), "1 minute 1 second");
  assertEquals(countdownWords(now + 120_000, now), "2 minutes");
  assertEquals(countdownWords(now, now), "0 seconds");
});

Deno.test("relativeTime: just now, seconds, minutes, hours, then a date", () => {
  const now = Date.UTC(2025, 0, 10, 12);
  assertEquals(relativeTime(now - 2_000, now), "just now");
  assertEquals(relativeTime(now - 42_000, now), "42 s ago");
  assertEquals(relativeTime(now - 3 * 60_000, now), "3 min ago");
  assertEquals(relativeTime(now - 2 * 3_600_000, now), "2 h ago");
  assertEquals(relativeTime(now - 3 * 86_400_000, now), "2025-01-07");
});

Deno.test("duration: ms, seconds, minutes", () => {
  assertEquals(duration(12.4), "12 ms");
  assertEquals(duration(1_234), "1.2 s");
  assertEquals(duration(12_345), "12 s");
  assertEquals(duration(125_000), "2 min 5 s");
  assertEquals(duration(120_000), "2 min");
});

Deno.test("baseToolName strips only the plugin's own prefix", () => {
  assertEquals(baseToolName("test-app", "test-app__echo"), "echo");
  assertEquals(baseToolName("test-app", "other__echo"), "other__echo");
  assertEquals(baseToolName("browser", "browser_list_tabs"), "browser_list_tabs");
});

Deno.test("plural", () => {
  assertEquals(plural(1, "tab"), "1 tab");
  assertEquals(plural(3, "tab"), "3 tabs");
});

Deno.test("showParameters: a bidi override in a key is escaped, so it cannot read as exe.pdf", () => {
  const [shown] = showParameters({ "report\u202Efdp.exe": "x" });
  assertEquals(shown.key, "report⟨U+202E⟩fdp.exe");
  assertEquals(shown.hidden, true);
  assertEquals(showParameters({ plain: "x" })[0].hidden, undefined);
});

Deno.test("showValue: hidden characters in values are escaped, line breaks kept", () => {
  const shown = showValue("list items\u200B\u2066; delete all\nnext line");
  assertEquals(shown.full, "list items⟨U+200B⟩⟨U+2066⟩; delete all\nnext line");
  assertEquals(shown.hidden, true);
  // JSON keeps bidi characters raw: they are escaped after it is written.
  assertEquals(showValue({ k: "\u202Eab" }).full, '{"k":"⟨U+202E⟩ab"}');
  assertEquals(showValue("plain").hidden, undefined);
});

Deno.test("showValue: a value padded with zero-width characters folds, its tail behind show all", () => {
  const value = "harmless" + "\u200B".repeat(40) + "; rm -rf ~";
  const shown = showValue(value);
  // Escaped, it is long: folded, and the summary says how much the preview leaves out. The
  // preview is a start of the value as received, whose escaped form fits PREVIEW_CHARS.
  assert(shown.preview !== undefined);
  assert(shown.full.endsWith("; rm -rf ~"), shown.full);
  assertEquals(shown.preview, "harmless" + "\u200B".repeat(11) + "…");
  const previewChars = 8 + 11 * "⟨U+200B⟩".length;
  assert(previewChars <= PREVIEW_CHARS);
  assertEquals(
    foldSummary(shown),
    `Show all ${charCount(shown.full)} (${shown.full.length - previewChars} not shown above)`,
  );
  assertEquals(showValue("a\u200Bb").preview, undefined);
});
