import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import {
  boundMessage,
  buildReport,
  formatReport,
  MAX_LINE_CHARS,
  MAX_MESSAGE_LINES,
  pass,
  problem,
  skip,
} from "./report.ts";

Deno.test("ok is false exactly when a check is an error", () => {
  const warn = problem("warn", "a", "A", "hmm", "do x");
  assertEquals(
    buildReport("1.0.0", [pass("p", "P", "fine"), warn, skip("s", "S", "later")]).ok,
    true,
  );
  assertEquals(buildReport("1.0.0", [warn, problem("error", "b", "B", "bad", "do y")]).ok, false);
});

Deno.test("the JSON shape: version, ok, checks with fix only on problems", () => {
  const report = buildReport("1.2.3", [
    pass("p", "P", "fine"),
    problem("warn", "w", "W", "m", "f"),
  ]);
  assertEquals(JSON.parse(JSON.stringify(report)), {
    version: "1.2.3",
    ok: true,
    checks: [
      { id: "p", title: "P", status: "pass", message: "fine" },
      { id: "w", title: "W", status: "warn", message: "m", fix: "f" },
    ],
  });
});

Deno.test("messages are bounded in lines and characters", () => {
  const long = boundMessage(Array.from({ length: 100 }, () => "x".repeat(1000)).join("\n"));
  const lines = long.split("\n");
  assertEquals(lines.length, MAX_MESSAGE_LINES);
  assertEquals(lines[0].length, MAX_LINE_CHARS);
  assertEquals(lines.at(-1), `…and ${100 - MAX_MESSAGE_LINES + 1} more lines`);
});

Deno.test("the checklist marks each line and gives the fix under it", () => {
  const text = formatReport(buildReport("1.0.0", [
    pass("p", "runtime", "Deno 2.1.0"),
    problem("error", "e", "server health", "hub is not running on port 9515", "hub start"),
    skip("s", "extension connected", "skipped (hub is not running)"),
  ]));
  assertEquals(text.split("\n"), [
    "hub doctor 1.0.0",
    "[ok]   runtime: Deno 2.1.0",
    "[FAIL] server health: hub is not running on port 9515",
    "         fix: hub start",
    "[skip] extension connected: skipped (hub is not running)",
    "1 fatal problem, 0 warnings.",
  ]);
  assertMatch(formatReport(buildReport("1", [pass("p", "P", "ok")])), /Everything looks good/);
});
