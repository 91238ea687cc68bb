/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { inFrames } from "./frame_scripting.ts";

type Target = chrome.scripting.InjectionTarget;

Deno.test("a frame that never answers is left out; the others answer", async () => {
  const asked: number[][] = [];
  const inject = (target: Target) => {
    const [frameId] = target.frameIds!;
    asked.push(target.frameIds!);
    if (frameId === 2) return new Promise<never>(() => {}); // busy forever
    if (frameId === 3) return Promise.reject(new Error("Cannot access contents of the page"));
    return Promise.resolve([{ frameId, documentId: `d${frameId}`, result: `text ${frameId}` }]);
  };
  const answers = await inFrames(7, [0, 1, 2, 3], inject, 20);
  assertEquals([...answers].sort(), [[0, "text 0"], [1, "text 1"]]);
  assertEquals(asked, [[0], [1], [2], [3]]);
});
