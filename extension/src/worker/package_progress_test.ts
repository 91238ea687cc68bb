/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { createProgressLog } from "./package_progress.ts";

Deno.test("progress keeps the latest message per operation and package, newest first", () => {
  let changes = 0;
  let clock = 100;
  const log = createProgressLog(() => changes++, () => clock++);
  log.add({ operation: "install", name: "hub-plugin-a", message: "Resolving", done: false });
  log.add({ operation: "search", message: "Searching", done: false });
  log.add({ operation: "install", name: "hub-plugin-a", message: "Installed", done: true });
  log.add({ operation: "update", name: "hub-plugin-a", message: "Downloading", done: false });
  assertEquals(log.list().map((e) => [e.operation, e.name, e.message, e.receivedAt]), [
    ["update", "hub-plugin-a", "Downloading", 103],
    ["install", "hub-plugin-a", "Installed", 102],
    ["search", undefined, "Searching", 101],
  ]);
  assertEquals(changes, 4);
  log.clear();
  log.clear(); // nothing to clear: no change pushed
  assertEquals([log.list(), changes], [[], 5]);
});

Deno.test("progress is bounded: the oldest operations go first", () => {
  const log = createProgressLog(() => {}, () => 0, 3);
  for (const name of ["a", "b", "c", "d"]) {
    log.add({ operation: "install", name, message: `installing ${name}`, done: false });
  }
  assertEquals(log.list().map((e) => e.name), ["d", "c", "b"]);
});
