/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { compose as composeTab, PAGE_TEXT_MAX_FRAMES } from "./page_text_frames.ts";

const compose = (...args: Parameters<typeof composeTab>) => composeTab(...args)!;

type Frame = chrome.webNavigation.GetAllFrameResultDetails;

const frame = (frameId: number, parentFrameId: number, url = `http://x/${frameId}`) =>
  ({ frameId, parentFrameId, url }) as Frame;

const said = (text: string, index: number, url = "http://x/", hidden: number[] = []) => ({
  outcome: {
    ok: true as const,
    value: { url, title: "T", text, truncated: false, totalLength: text.length },
  },
  index,
  hidden,
});

Deno.test("frames follow the top text in document order, nested after their parent", () => {
  const frames = [frame(0, -1), frame(5, 0), frame(3, 0), frame(7, 3), frame(9, 0)];
  const answers = new Map([
    [0, said("Top", -1, "http://top/")],
    [5, said("Second", 1, "http://b/")],
    [3, said("First", 0, "http://a/")],
    [7, said("Inner", 0, "http://a/in")],
    // 9 answered nothing: it cannot be scripted
  ]);
  const text = "Top\n\n--- frame 1: http://a/\nFirst\n\n--- frame 1.1: http://a/in\nInner" +
    "\n\n--- frame 2: http://b/\nSecond\n\n--- frame 3: http://x/9 (its text cannot be read)";
  assertEquals(compose(frames, answers, 1000), {
    url: "http://top/",
    title: "T",
    text,
    truncated: false,
    totalLength: text.length,
  });
});

Deno.test("the whole answer is capped at maxLength, frames counted in totalLength", () => {
  const frames = [frame(0, -1), frame(1, 0)];
  const answers = new Map([[0, said("Top", -1)], [1, said("x".repeat(50), 0, "http://a/")]]);
  const whole = compose(frames, answers, 1000);
  const cut = compose(frames, answers, 20);
  assertEquals([cut.truncated, cut.totalLength], [true, whole.totalLength]);
  assertEquals(cut.text.slice(0, 20), whole.text.slice(0, 20));
  assertEquals(cut.text.slice(20, 45), "\n…[truncated: showed 20 o");
});

Deno.test(`at most ${PAGE_TEXT_MAX_FRAMES} frames are read, the rest counted`, () => {
  const count = PAGE_TEXT_MAX_FRAMES + 3;
  const frames = [frame(0, -1), ...Array.from({ length: count }, (_, i) => frame(i + 1, 0))];
  const answers = new Map([[0, said("Top", -1)]]);
  for (let i = 1; i <= count; i++) answers.set(i, said(`F${i}`, i - 1));
  const { text } = compose(frames, answers, 100_000);
  assertEquals(text.split("\n").filter((l) => l.startsWith("--- frame ")).length, 50);
  assertEquals(text.endsWith("F50\n\n--- 3 more frames not read (at most 50 are)"), true);
});

Deno.test("a frame whose element is hidden is left out, with the frames inside it", () => {
  const frames = [frame(0, -1), frame(1, 0), frame(2, 0), frame(3, 2), frame(4, 0)];
  const answers = new Map([
    [0, said("Top", -1, "http://x/", [1])],
    [1, said("Shown", 0, "http://a/")],
    [2, said("Hidden", 1)],
    [3, said("Inside hidden", 0)],
    [4, said("Last", 2, "http://c/")],
  ]);
  assertEquals(
    compose(frames, answers, 1000).text,
    "Top\n\n--- frame 1: http://a/\nShown\n\n--- frame 2: http://c/\nLast",
  );
});

Deno.test("a top document that cannot be scripted gives no answer: read as a page without frames", () => {
  const frames = [frame(0, -1), frame(1, 0)];
  assertEquals(composeTab(frames, new Map([[1, said("Child", 0)]]), 1000), undefined);
});
