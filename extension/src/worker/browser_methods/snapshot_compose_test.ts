/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import {
  composeOutline,
  type DocOutline,
  type FrameRead,
  framesToRead,
  type SnapshotFrame,
  tabStopped,
} from "./snapshot_compose.ts";
import { BLOCKED_MARK, type KeptOut, NOT_READ_MARK } from "./blocked_frames.ts";

const frame = (frameId: number, parentFrameId: number): SnapshotFrame => ({
  frameId,
  parentFrameId,
  documentId: `D${frameId}`,
});

const doc = (index: number, lines: string[], frames: DocOutline["frames"] = []): DocOutline => ({
  url: `http://x/${index}`,
  title: `T${index}`,
  index,
  lines,
  frames,
});

const HEAD = { title: "Top", url: "http://127.0.0.1/" };

Deno.test("composeOutline nests frames three deep under their iframe lines", () => {
  const frames = [frame(0, -1), frame(5, 0), frame(7, 5), frame(9, 7)];
  const reads = new Map<number, FrameRead>([
    [0, {
      k: 0,
      outline: doc(-1, ['- heading "Top" [level=1] [ref=e1]', "- main", '  - iframe "One"'], [
        { line: 2, index: 0, ref: "e2" },
      ]),
    }],
    [5, {
      k: 1,
      outline: doc(0, ['- button "A" [ref=f1e1]', '- iframe "Two"'], [{
        line: 1,
        index: 0,
        ref: "f1e2",
      }]),
    }],
    [7, {
      k: 2,
      outline: doc(0, ["- list", '  - iframe "Three"'], [{ line: 1, index: 0, ref: "f2e1" }]),
    }],
    [9, { k: 3, outline: doc(0, ['- button "Deep" [ref=f3e1]']) }],
  ]);
  const { text, owners } = composeOutline(HEAD, frames, reads);
  assertEquals(text.split("\n"), [
    "# Top — http://127.0.0.1/",
    '- heading "Top" [level=1] [ref=e1]',
    "- main",
    '  - iframe "One" [ref=f1]',
    '    - button "A" [ref=f1e1]',
    '    - iframe "Two" [ref=f2]',
    "      - list",
    '        - iframe "Three" [ref=f3]',
    '          - button "Deep" [ref=f3e1]',
  ]);
  assertEquals([...owners], [[1, "e2"], [2, "f1e2"], [3, "f2e1"]]);
});

Deno.test("composeOutline matches children by their own index, not by frame order", () => {
  const frames = [frame(0, -1), frame(3, 0), frame(4, 0)];
  const reads = new Map<number, FrameRead>([
    [0, {
      k: 0,
      outline: doc(-1, ['- iframe "A"', '- iframe "B"'], [
        { line: 0, index: 0, ref: "e1" },
        { line: 1, index: 1, ref: "e2" },
      ]),
    }],
    [3, { k: 1, outline: doc(1, ["- text: in B"]) }],
    [4, { k: 2, outline: doc(0, ["- text: in A"]) }],
  ]);
  assertEquals(composeOutline(HEAD, frames, reads).text.split("\n").slice(1), [
    '- iframe "A" [ref=f2]',
    "  - text: in A",
    '- iframe "B" [ref=f1]',
    "  - text: in B",
  ]);
});

Deno.test("composeOutline: shadow-root frames at their parent's end, hidden ones out, unread ones keep the element ref", () => {
  const frames = [frame(0, -1), frame(1, 0), frame(2, 0), frame(3, 1), frame(4, 0)];
  const reads = new Map<number, FrameRead>([
    [0, {
      k: 0,
      outline: doc(-1, [
        '- iframe "Locked"',
        "- x-card",
        '  - button "Go" [ref=e3]',
        '    - iframe "Shadowed"',
      ], [
        { line: 0, index: 0, ref: "e1" },
        { line: 3, index: -1, ref: "e4" },
      ]),
    }],
    // frame 1 (index 0) could not be read: no outline.
    [1, { k: 1 }],
    // frame 2 sits in a shadow root: index -1.
    [2, { k: 2, outline: doc(-1, ['- button "Inside" [ref=f2e1]']) }],
    // frame 3's parent was not read: it cannot be placed.
    [3, { k: 3, outline: doc(0, ["- text: orphan"]) }],
    // frame 4 says index 5, which no line has: its <iframe> is hidden.
    [4, { k: 4, outline: doc(5, ["- text: hidden"]) }],
  ]);
  const { text, owners } = composeOutline(HEAD, frames, reads);
  assertEquals(text.split("\n").slice(1), [
    '- iframe "Locked" [not read] [ref=e1]',
    "- x-card",
    '  - button "Go" [ref=e3]',
    '    - iframe "Shadowed" [ref=e4]',
    "- iframe [ref=f2]",
    '  - button "Inside" [ref=f2e1]',
  ]);
  assertEquals(owners.size, 0);
  // frame 5 is in a shadow root too, but the top shows only one such iframe: a closed root's
  // frame may be the hidden one, so neither -1 frame shows.
  reads.set(5, { k: 5, outline: doc(-1, ["- text: hidden too"]) });
  const more = composeOutline(HEAD, [...frames, frame(5, 0)], reads);
  assertEquals(more.text.split("\n").slice(1), [
    '- iframe "Locked" [not read] [ref=e1]',
    "- x-card",
    '  - button "Go" [ref=e3]',
    '    - iframe "Shadowed" [not read] [ref=e4]',
  ]);
  assertEquals([...more.unread].sort(), [1, 2, 5]);
});

/** A document's framesShown: one frame element shown and one hidden in shadow roots. */
const HIDDEN_IN_SHADOW = { indexes: [], shadowShown: 1, shadowHidden: true };

Deno.test("composeOutline shows no unplaced frame when a hidden iframe of the parent has no index (R2#1)", () => {
  // Two shadow-root iframes: a hidden ad (frame 2, no line) and a visible bank form (frame 3).
  // Either unplaced frame may be the hidden one, so neither's content shows.
  const frames = [frame(0, -1), frame(2, 0), frame(3, 0)];
  const top = doc(-1, ['- iframe "Bank card form"'], [{ line: 0, index: -1, ref: "e1" }]);
  const reads = new Map<number, FrameRead>([
    [0, { k: 0, outline: { ...top, framesShown: HIDDEN_IN_SHADOW } }],
    [2, { k: 1, outline: doc(-1, ["- text: EVIL", '- button "Confirm" [ref=f1e1]']) }],
    [3, { k: 2, outline: doc(-1, ['- textbox "Card" [ref=f2e1]']) }],
  ]);
  const { text, owners, unread } = composeOutline(HEAD, frames, reads);
  assertEquals(text.split("\n").slice(1), ['- iframe "Bank card form" [not read] [ref=e1]']);
  assertEquals(owners.size, 0);
  assertEquals([...unread].sort(), [1, 2]);
  // Without a hidden one the kit could see (the ad in a closed shadow root), two frames answer -1
  // for one line: either may be the hidden one, so neither shows (R4 N1).
  const closed = composeOutline(HEAD, frames, new Map([...reads, [0, { k: 0, outline: top }]]));
  assertEquals(closed.text, text);
  assertEquals([...closed.unread].sort(), [1, 2]);
  // The bank frame alone goes at the end as before.
  const alone = new Map([...reads, [0, { k: 0, outline: top }]]);
  alone.delete(2);
  const shown = composeOutline(HEAD, [frame(0, -1), frame(3, 0)], alone);
  assertEquals(shown.text.split("\n").slice(1), [
    '- iframe "Bank card form" [ref=e1]',
    "- iframe [ref=f2]",
    '  - textbox "Card" [ref=f2e1]',
  ]);
  assertEquals(shown.unread.size, 0);
});

Deno.test("composeOutline marks the iframe line of a frame that did not answer [not read]", () => {
  const frames = [frame(0, -1), frame(1, 0), frame(2, 0)];
  const reads = new Map<number, FrameRead>([
    [0, {
      k: 0,
      outline: doc(-1, ['- iframe "Payment"', '- iframe "News"'], [
        { line: 0, index: 0, ref: "e1" },
        { line: 1, index: 1, ref: "e2" },
      ]),
    }],
    [1, { k: 1 }],
    [2, { k: 2, outline: doc(1, ["- text: today"]) }],
  ]);
  const { text, unread } = composeOutline(HEAD, frames, reads);
  assertEquals(text.split("\n").slice(1), [
    '- iframe "Payment" [not read] [ref=e1]',
    '- iframe "News" [ref=f2]',
    "  - text: today",
  ]);
  assertEquals([...unread], [1]);
});

Deno.test("composeOutline with a subtree root leaves children outside the subtree out", () => {
  const frames = [frame(0, -1), frame(1, 0), frame(2, 1), frame(3, 1)];
  const reads = new Map<number, FrameRead>([
    [1, {
      k: 1,
      outline: doc(0, ["- form", '  - iframe "Pay"'], [{ line: 1, index: 1, ref: "f1e4" }]),
    }],
    [2, { k: 2, outline: doc(0, ["- text: elsewhere"]) }],
    [3, { k: 3, outline: doc(1, ['- button "Pay" [ref=f3e1]']) }],
  ]);
  const { text } = composeOutline(HEAD, frames, reads, { rootFrameId: 1, subtree: true });
  assertEquals(text.split("\n"), [
    "# Top — http://127.0.0.1/",
    "- form",
    '  - iframe "Pay" [ref=f3]',
    '    - button "Pay" [ref=f3e1]',
  ]);
});

Deno.test("framesToRead takes the nearest frames first, at most max", () => {
  const frames = [frame(0, -1), frame(1, 0), frame(2, 1), frame(3, 2), frame(4, 0)];
  assertEquals(framesToRead(frames, 0, 50).map((f) => f.frameId), [1, 4, 2, 3]);
  assertEquals(framesToRead(frames, 0, 3).map((f) => f.frameId), [1, 4, 2]);
  assertEquals(framesToRead(frames, 1, 50).map((f) => f.frameId), [2, 3]);
});

Deno.test("composeOutline stops a tab's outline past its budget with one # line", () => {
  const frames = [frame(0, -1), frame(5, 0)];
  const many = Array.from({ length: 50 }, (_, i) => `- text: line ${i}`);
  const reads = new Map<number, FrameRead>([
    [0, { k: 0, outline: doc(-1, ['- iframe "One"'], [{ line: 0, index: 0, ref: "e1" }]) }],
    [5, { k: 1, outline: doc(0, many) }],
  ]);
  const whole = composeOutline(HEAD, frames, reads).text;
  const cut = composeOutline(HEAD, frames, reads, {}, 300).text;
  const lines = cut.split("\n");
  assertEquals(lines.at(-1), tabStopped(300));
  assertEquals(cut.length - lines.at(-1)!.length <= 300, true, "within the budget, its line aside");
  assertEquals(whole.startsWith(lines.slice(0, -1).join("\n")), true, "the lines before are whole");
});

Deno.test("a blocked frame is one line under its iframe, or at its parent's end; no ref, no content", () => {
  const frames = [
    { ...frame(0, -1), url: "http://top/" },
    { ...frame(4, 0), url: "http://off.test/a" },
    { ...frame(5, 0), url: "http://ok/" },
    { ...frame(6, 0), url: "http://off.test/moved" },
  ];
  const reads = new Map<number, FrameRead>([
    [0, {
      k: 0,
      outline: doc(-1, ['- iframe "Ads"', '- iframe "Ok"', "- iframe"], [
        { line: 0, index: 0, ref: "e1", src: "http://off.test/a" },
        { line: 1, index: 1, ref: "e2", src: "http://ok/" },
        { line: 2, index: 2, ref: "e3", src: "http://elsewhere/" },
      ]),
    }],
    [5, { k: 1, outline: doc(1, ['- button "Fine" [ref=f1e1]']) }],
  ]);
  const ids = new Map<number, KeptOut>([[4, BLOCKED_MARK], [6, BLOCKED_MARK]]);
  const blocked = { ids, isBlocked: (url: string) => url.includes("off.test") };
  const { text } = composeOutline(HEAD, frames, reads, { blocked });
  assertEquals(text.split("\n"), [
    "# Top — http://127.0.0.1/",
    '- iframe "Ads" [blocked: site not allowed]',
    '- iframe "Ok" [ref=f1]',
    '  - button "Fine" [ref=f1e1]',
    "- iframe [ref=e3]",
    "- iframe [blocked: site not allowed]",
  ]);
});

Deno.test("an ask frame not allowed for this call is one line saying so, beside an off one", () => {
  const frames = [
    { ...frame(0, -1), url: "http://top/" },
    { ...frame(4, 0), url: "https://mail.test/inbox" },
    { ...frame(6, 0), url: "http://off.test/a" },
  ];
  const reads = new Map<number, FrameRead>([
    [0, {
      k: 0,
      outline: doc(-1, ['- iframe "Mail"', '- iframe "Ads"'], [
        { line: 0, index: 0, ref: "e1", src: "https://mail.test/inbox" },
        { line: 1, index: 1, ref: "e2", src: "http://off.test/a" },
      ]),
    }],
  ]);
  const ids = new Map<number, KeptOut>([[4, NOT_READ_MARK], [6, BLOCKED_MARK]]);
  const isBlocked = (url: string) => !url.startsWith("http://top");
  const { text } = composeOutline(HEAD, frames, reads, { blocked: { ids, isBlocked } });
  assertEquals(text.split("\n"), [
    "# Top — http://127.0.0.1/",
    '- iframe "Mail" [not read: site not allowed yet]',
    '- iframe "Ads" [blocked: site not allowed]',
  ]);
});
