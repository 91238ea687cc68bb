/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { BLOCKED_MARK, placeBlocked, splitBlocked, type UrlFrame } from "./blocked_frames.ts";

const OFF = "http://off.test";
const isBlocked = (url: string) => url.startsWith(OFF);
const keptOut = (frame: UrlFrame) => isBlocked(frame.url) ? BLOCKED_MARK : undefined;
const frame = (frameId: number, parentFrameId: number, url: string): UrlFrame => ({
  frameId,
  parentFrameId,
  url,
});

Deno.test("splitBlocked keeps a blocked frame and leaves out every frame inside it", () => {
  const all = [
    frame(0, -1, "http://top.test/"),
    frame(1, 0, `${OFF}/ad`),
    frame(2, 1, "http://top.test/inner"), // inside the blocked frame: its content
    frame(3, 2, "http://deeper.test/"),
    frame(4, 0, "http://ok.test/"),
  ];
  const { frames, blocked } = splitBlocked(all, keptOut);
  assertEquals(frames.map((f) => f.frameId), [0, 1, 4]);
  assertEquals([...blocked], [[1, BLOCKED_MARK]]);
});

Deno.test("splitBlocked never blocks the top frame, and answers the list as is without rules", () => {
  const all = [frame(0, -1, `${OFF}/`), frame(1, 0, "http://ok.test/")];
  const { frames, blocked } = splitBlocked(all, keptOut);
  assertEquals(frames, all);
  assertEquals(blocked.size, 0);
});

Deno.test("placeBlocked: the src equal to the URL, then a blocked src, else -1", () => {
  const kids = [frame(7, 0, `${OFF}/a`), frame(8, 0, `${OFF}/redirected`), frame(9, 0, `${OFF}/c`)];
  const slots = [
    { index: 0, src: "http://ok.test/" },
    { index: 1, src: `${OFF}/start` }, // redirected inside the blocked site
    { index: 2, src: `${OFF}/a` },
    { index: 3 },
  ];
  const placed = placeBlocked(kids, slots, new Set([0]), isBlocked);
  assertEquals(placed, new Map([[7, 2], [8, 1], [9, -1]]));
});

Deno.test("placeBlocked does not give an index a frame that told its own took", () => {
  const placed = placeBlocked(
    [frame(5, 0, `${OFF}/x`)],
    [{ index: 0, src: `${OFF}/x` }],
    new Set([0]),
    isBlocked,
  );
  assertEquals(placed, new Map([[5, -1]]));
});
