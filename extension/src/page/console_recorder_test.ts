/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import {
  CONSOLE_BUFFER_KEY,
  type ConsoleBuffer,
  type ConsoleHost,
  installConsoleRecorder,
  pushEntry,
} from "./console_recorder.ts";

/** A fake page: a console whose methods note their calls, and event listeners by type. */
function fakeHost() {
  const calls: [string, unknown[], unknown][] = [];
  const listeners: Record<string, (event: unknown) => void> = {};
  const console: ConsoleHost["console"] = {};
  for (const level of ["debug", "log", "info", "warn", "error"] as const) {
    console[level] = function (this: unknown, ...args: unknown[]) {
      calls.push([level, args, this]);
    };
  }
  const host: ConsoleHost = {
    console,
    addEventListener: (type, listener) => (listeners[type] = listener),
  };
  return { host, calls, listeners };
}

Deno.test("console calls are recorded and still reach the original console", () => {
  const { host, calls } = fakeHost();
  let now = 1000;
  const buffer = installConsoleRecorder(host, () => now++);
  const obj = { a: 1 };
  host.console.log!("hello", obj);
  host.console.warn!("careful");
  host.console.debug!("%d items", 3);
  assertEquals(buffer.entries, [
    { time: 1000, level: "log", text: 'hello {"a": 1}' },
    { time: 1001, level: "warn", text: "careful" },
    { time: 1002, level: "debug", text: "3 items" },
  ]);
  assertEquals(calls.map(([level, args]) => [level, args]), [
    ["log", ["hello", obj]],
    ["warn", ["careful"]],
    ["debug", ["%d items", 3]],
  ]);
  assertEquals(calls[0][2], host.console, "called with the console as this");
  assertEquals(
    (host as unknown as Record<symbol, ConsoleBuffer>)[Symbol.for(CONSOLE_BUFFER_KEY)],
    buffer,
  );
});

Deno.test("uncaught errors and unhandled rejections are recorded as errors", () => {
  const { host, listeners } = fakeHost();
  const buffer = installConsoleRecorder(host, () => 5);
  const error = new Error("kaboom");
  listeners.error({ message: "Uncaught Error: kaboom", error, filename: "http://x/a.js" });
  listeners.error({ message: "Script error.", error: null, filename: "" });
  listeners.unhandledrejection({ reason: new TypeError("nope") });
  listeners.unhandledrejection({ reason: "plain" });
  const [first, second, third, fourth] = buffer.entries;
  assertEquals([first.level, first.source], ["error", "uncaught"]);
  assertEquals(first.text.startsWith("Uncaught Error: kaboom\n    at "), true, first.text);
  assertEquals(first.text.endsWith("(http://x/a.js:undefined:undefined)"), true, first.text);
  assertEquals(second, { time: 5, level: "error", text: "Script error.", source: "uncaught" });
  assertEquals(third.source, "unhandledrejection");
  assertEquals(third.text.startsWith("Uncaught (in promise) TypeError: nope"), true, third.text);
  assertEquals(fourth.text, "Uncaught (in promise) plain");
});

Deno.test("the buffer keeps the newest entries and counts the dropped ones", () => {
  const buffer: ConsoleBuffer = { entries: [], dropped: 0 };
  for (let i = 0; i < 5; i++) pushEntry(buffer, { time: i, level: "log", text: `${i}` }, 3);
  assertEquals(buffer.entries.map((e) => e.text), ["2", "3", "4"]);
  assertEquals(buffer.dropped, 2);
});

Deno.test("installing twice keeps one recorder; a failing clock never reaches the page", () => {
  const { host, calls } = fakeHost();
  const buffer = installConsoleRecorder(host, () => {
    throw new Error("clock broke");
  });
  assertEquals(installConsoleRecorder(host), buffer);
  host.console.error!("still logged");
  assertEquals(calls.length, 1, "one wrapper, the original called once");
  assertEquals(buffer.entries, []);
});
