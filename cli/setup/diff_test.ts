import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { MAX_DIFF_LINES, MAX_LINE, unifiedDiff } from "./diff.ts";

Deno.test("unifiedDiff: equal texts give no diff", () => {
  assertEquals(unifiedDiff("f", "a\nb\n", "a\nb\n"), "");
});

Deno.test("unifiedDiff: a new file is all added, from /dev/null", () => {
  assertEquals(
    unifiedDiff("~/f.json", "", "{\n}\n"),
    "--- /dev/null\n+++ ~/f.json\n@@ -0,0 +1,2 @@\n+{\n+}",
  );
});

Deno.test("unifiedDiff: one changed line keeps three lines of context each side", () => {
  const before = ["1", "2", "3", "4", "5", "6", "7", "8", "9"].join("\n") + "\n";
  const after = before.replace("5", "five");
  assertEquals(
    unifiedDiff("f", before, after).split("\n"),
    ["--- f", "+++ f", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8"],
  );
});

Deno.test("unifiedDiff: changes far apart make two hunks; insertions count right", () => {
  const lines = Array.from({ length: 30 }, (_, i) => `l${i}`);
  const after = [...lines];
  after.splice(2, 0, "new");
  after[25] = "changed";
  const diff = unifiedDiff("f", lines.join("\n"), after.join("\n")).split("\n");
  const heads = diff.filter((l) => l.startsWith("@@"));
  assertEquals(heads, ["@@ -1,5 +1,6 @@", "@@ -22,7 +23,7 @@"]);
  assertEquals(diff.filter((l) => /^[-+][^-+]/.test(l)), ["+new", "-l24", "+changed"]);
});

Deno.test("unifiedDiff: removing everything ends at +0,0", () => {
  assertEquals(unifiedDiff("f", "a\n", ""), "--- f\n+++ f\n@@ -1,1 +0,0 @@\n-a");
});

Deno.test("unifiedDiff: a long line is clipped around its change; the diff is bounded", () => {
  const long = `{"projects":"${"p".repeat(5000)}","mcpServers":{}}`;
  const after = long.replace(`"mcpServers":{}`, `"mcpServers":{"hub":{"url":"u"}}`);
  const [, , , minus, plus] = unifiedDiff("f", long + "\n", after + "\n").split("\n");
  assert(minus.length < MAX_LINE + 40 && plus.length < MAX_LINE + 40);
  assertMatch(minus, /^-…\(\d+ chars\)p+","mcpServers":\{\}\}$/);
  assertMatch(plus, /^\+…\(\d+ chars\)p+","mcpServers":\{"hub":\{"url":"u"\}\}\}$/);
  const many = Array.from({ length: 1000 }, (_, i) => `${i}`).join("\n") + "\n";
  const lines = unifiedDiff("f", "", many).split("\n");
  assertEquals(lines.length, 2 + 1 + MAX_DIFF_LINES);
  assertEquals(lines.at(-1), `…(${1001 - MAX_DIFF_LINES} more lines of diff)`);
  assertEquals(unifiedDiff("f", "a\n", "b\n", (l) => l.toUpperCase()).split("\n").slice(3), [
    "-A",
    "+B",
  ]);
});
