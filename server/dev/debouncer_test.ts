import { assertEquals } from "../../tests/helpers/assert.ts";
import { createDebouncer } from "./debouncer.ts";

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("a burst of changes to one key runs it once, after the last change", async () => {
  const runs: string[] = [];
  const d = createDebouncer<string>(30, (key) => (runs.push(key), Promise.resolve()));
  d.trigger("a");
  await delay(10);
  d.trigger("a");
  await delay(10);
  d.trigger("a");
  assertEquals(d.pending(), 1);
  await delay(15);
  assertEquals(runs, [], "still within the quiet time of the last change");
  await d.idle();
  assertEquals(runs, ["a"]);
  assertEquals(d.pending(), 0);
});

Deno.test("different keys run on their own; pending counts the chosen ones", async () => {
  const runs: string[] = [];
  const d = createDebouncer<string>(10, (key) => (runs.push(key), Promise.resolve()));
  d.trigger("a");
  d.trigger("b");
  d.trigger("config");
  assertEquals(d.pending(), 3);
  assertEquals(d.pending((k) => k !== "config"), 2);
  await d.idle();
  assertEquals(runs.sort(), ["a", "b", "config"]);
});

Deno.test("a change while a key runs runs it once more afterwards, never twice at once", async () => {
  let active = 0;
  let most = 0;
  let runs = 0;
  const d = createDebouncer<string>(5, async () => {
    runs++;
    most = Math.max(most, ++active);
    await delay(40);
    active--;
  });
  d.trigger("a");
  await delay(15); // running now
  assertEquals(d.has("a"), true);
  d.trigger("a");
  d.trigger("a");
  await delay(15);
  assertEquals(d.pending(), 1, "waiting and running count once");
  await d.idle();
  await delay(60);
  await d.idle();
  assertEquals([runs, most], [2, 1]);
});

Deno.test("a failing run does not stop later ones; close cancels waiting runs", async () => {
  const runs: string[] = [];
  const d = createDebouncer<string>(5, (key) => {
    runs.push(key);
    return Promise.reject(new Error("boom"));
  });
  d.trigger("a");
  await d.idle();
  d.trigger("a");
  await d.idle();
  assertEquals(runs, ["a", "a"]);
  d.trigger("b");
  d.close();
  d.trigger("c");
  await delay(20);
  assertEquals(runs, ["a", "a"]);
  assertEquals(d.pending(), 0);
});
