/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import {
  boxState,
  moveBox,
  movedAxes,
  movesBox,
  overflowScrolls,
  type ScrollBox,
  type Scroller,
  scrollsFor,
} from "./dom_scroll_box.ts";

Deno.test("movesBox: x, y or to given (even 0) moves; a bare selector brings into view", () => {
  assertEquals(movesBox({}), false);
  assertEquals(movesBox({ y: 0 }), true);
  assertEquals(movesBox({ x: -5 }), true);
  assertEquals(movesBox({ to: "bottom" }), true);
});

Deno.test("movedAxes: to is vertical; x/y the axes that are not 0", () => {
  assertEquals(movedAxes({ to: "top" }), ["y"]);
  assertEquals(movedAxes({ y: 40 }), ["y"]);
  assertEquals(movedAxes({ x: 10, y: 0 }), ["x"]);
  assertEquals(movedAxes({ x: 1, y: -1 }), ["x", "y"]);
  assertEquals(movedAxes({ x: 0 }), []);
});

Deno.test("a box scrolls along an axis whose overflow is auto, scroll or overlay", () => {
  for (const overflow of ["auto", "scroll", "overlay"]) {
    assertEquals(overflowScrolls(overflow), true);
  }
  for (const overflow of ["visible", "hidden", "clip"]) {
    assertEquals(overflowScrolls(overflow), false, overflow);
  }
  const list = { x: "hidden", y: "auto" };
  assertEquals(scrollsFor(list, { y: 100 }), true);
  assertEquals(scrollsFor(list, { to: "bottom" }), true);
  assertEquals(scrollsFor(list, { x: 100 }), false, "not sideways");
  assertEquals(scrollsFor(list, { x: 10, y: 10 }), false, "every moved axis");
  assertEquals(scrollsFor(list, { y: 0 }), true, "a 0 move needs one axis");
  assertEquals(scrollsFor({ x: "visible", y: "visible" }, { y: 0 }), false);
});

const LIST: ScrollBox = {
  scrollLeft: 0,
  scrollTop: 0,
  scrollWidth: 300,
  scrollHeight: 1000,
  clientWidth: 300,
  clientHeight: 200,
};

Deno.test("boxState says where the box is and whether content lies beyond each edge", () => {
  assertEquals(boxState(LIST), {
    scrollLeft: 0,
    scrollTop: 0,
    scrollWidth: 300,
    scrollHeight: 1000,
    clientWidth: 300,
    clientHeight: 200,
    moreLeft: false,
    moreRight: false,
    moreAbove: false,
    moreBelow: true,
  });
  const middle = boxState({ ...LIST, scrollTop: 399.6 });
  assertEquals([middle.scrollTop, middle.moreAbove, middle.moreBelow], [400, true, true]);
  const end = boxState({ ...LIST, scrollTop: 799.5 });
  assertEquals([end.scrollTop, end.moreAbove, end.moreBelow], [800, true, false]);
  const wide = boxState({ ...LIST, scrollWidth: 900, scrollLeft: 10 });
  assertEquals([wide.moreLeft, wide.moreRight], [true, true]);
});

function fakeBox(): Scroller & { calls: string[] } {
  const calls: string[] = [];
  return {
    ...LIST,
    scrollLeft: 30,
    calls,
    scrollBy: (o) => calls.push(`by ${o.left},${o.top} ${o.behavior}`),
    scrollTo: (o) => calls.push(`to ${o.left},${o.top} ${o.behavior}`),
  };
}

Deno.test("moveBox scrolls by x/y, to an edge keeping the horizontal position, not by 0", () => {
  const cases: [Parameters<typeof moveBox>[1], string[]][] = [
    [{ y: 150 }, ["by 0,150 instant"]],
    [{ x: -20 }, ["by -20,0 instant"]],
    [{ to: "bottom" }, ["to 30,1000 instant"]],
    [{ to: "top" }, ["to 30,0 instant"]],
    [{ x: 0, y: 0 }, []],
  ];
  for (const [move, calls] of cases) {
    const box = fakeBox();
    moveBox(box, move);
    assertEquals(box.calls, calls, JSON.stringify(move));
  }
});
