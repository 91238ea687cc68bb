import { assertEquals } from "../../tests/helpers/assert.ts";
import { createNativeWatch } from "./native_watch.ts";
import type { FsWatcher } from "../../core/files/safe_watch.ts";

/** A fake watcher factory: `fail` makes the next start throw; records every start. */
function fakes() {
  const started: string[][] = [];
  const closed: number[] = [];
  const log: string[] = [];
  let fail = false;
  const watchFs = (paths: string[]): FsWatcher => {
    if (fail) throw new Error("No path was found.");
    const id = started.push(paths);
    const never = new Promise<IteratorResult<Deno.FsEvent>>(() => {});
    return {
      close: () => void closed.push(id),
      [Symbol.asyncIterator]: () => ({ next: () => never }),
    };
  };
  const watch = createNativeWatch({
    watchFs,
    onEvent() {},
    onFailed: (e) => void log.push(`failed: ${e.message}`),
    onRestored: () => void log.push("restored"),
  });
  return { watch, started, closed, log, setFail: (v: boolean) => (fail = v) };
}

Deno.test("the same paths keep their watcher; new paths or a renewal start another", () => {
  const f = fakes();
  f.watch.watch(["/c", "/p/a/dist"]);
  f.watch.watch(["/c", "/p/a/dist"]);
  assertEquals(f.started.length, 1);
  f.watch.watch(["/c", "/p/a/dist"], true);
  assertEquals([f.started.length, f.closed], [2, [1]]);
  f.watch.watch(["/c"]);
  assertEquals([f.started.length, f.closed], [3, [1, 2]]);
  f.watch.close();
  assertEquals(f.closed, [1, 2, 3]);
});

Deno.test("a failure is said once, and the next watch tries again and says it works", () => {
  const f = fakes();
  f.setFail(true);
  f.watch.watch(["/c", "/p/a/dist"]);
  f.watch.watch(["/c", "/p/a/dist"]);
  assertEquals(f.log, ["failed: No path was found."]);
  assertEquals(f.watch.failing(), true);
  f.setFail(false);
  f.watch.watch(["/c", "/p/a/dist"]); // the same paths: retried all the same
  assertEquals(f.log, ["failed: No path was found.", "restored"]);
  assertEquals([f.watch.failing(), f.started.length], [false, 1]);
  f.watch.close();
});
