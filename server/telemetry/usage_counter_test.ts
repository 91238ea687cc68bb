import { assertEquals } from "../../tests/helpers/assert.ts";
import { createUsageCounter } from "./usage_counter.ts";

Deno.test("calls are counted by outcome, category and kind, and take starts again", () => {
  const counter = createUsageCounter();
  assertEquals(counter.take(), undefined, "no calls: nothing to report");
  counter.record({ plugin: "secret-app", success: true });
  counter.record({ plugin: "browser", success: true });
  counter.record({
    plugin: "hub",
    success: false,
    error: { code: "INVALID_ARGUMENTS", message: "bad /home/me", category: "validation" },
  });
  counter.record({
    plugin: "secret-app",
    success: false,
    error: { code: "MY_CODE", message: "x", category: "made-up category" },
  });
  counter.record({ plugin: "secret-app", success: false });
  assertEquals(counter.take(), {
    success: 2,
    failure: 3,
    byCategory: { validation: 1, other: 2 },
    byKind: { plugin: 3, browser: 1, hub: 1 },
  });
  assertEquals(counter.take(), undefined);
});

Deno.test("add merges counts taken from another counter", () => {
  const a = createUsageCounter();
  const b = createUsageCounter();
  a.record({ plugin: "browser", success: true });
  b.record({
    plugin: "x",
    success: false,
    error: { code: "C", message: "m", category: "timeout" },
  });
  b.record({ plugin: "browser", success: true });
  a.add(b.take()!);
  assertEquals(a.take(), {
    success: 2,
    failure: 1,
    byCategory: { timeout: 1 },
    byKind: { browser: 2, plugin: 1 },
  });
});
