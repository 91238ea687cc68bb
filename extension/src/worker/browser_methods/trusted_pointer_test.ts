/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import type { CdpParams, TabSession } from "../debugger_sessions.ts";
import {
  DRAG_STEPS,
  modifierBits,
  mouseClick,
  mouseDrag,
  mouseMove,
  mouseWheel,
  sendClick,
} from "./trusted_pointer.ts";

/** A session that records the commands it is sent; `answer` may emit events meanwhile. */
function fakeSession(answer: (method: string, params: CdpParams) => void = () => {}) {
  const sent: [string, CdpParams][] = [];
  const session: TabSession = {
    tabId: 7,
    send<T>(method: string, params: CdpParams = {}) {
      sent.push([method, params]);
      answer(method, params);
      return Promise.resolve({} as T);
    },
    children: () => [],
  };
  return { session, sent };
}

/** One click's mouse events, after the move to its point. */
const PRESS_RELEASE = ["mousePressed", "mouseReleased"];

const mouseTypes = (sent: [string, CdpParams][]) =>
  sent.filter(([m]) => m === "Input.dispatchMouseEvent").map(([, p]) => p.type);

Deno.test("modifier bits are the debugger's: Alt 1, Control 2, Meta 4, Shift 8", () => {
  assertEquals(modifierBits(), 0);
  assertEquals(modifierBits(["Shift"]), 8);
  assertEquals(modifierBits(["Alt", "Control", "Meta", "Shift"]), 15);
});

Deno.test("a click moves, then presses and releases clickCount times with its button", async () => {
  const { session, sent } = fakeSession();
  await mouseClick(session, 10, 20, { button: "right", clickCount: 2, modifiers: ["Control"] });
  assertEquals(mouseTypes(sent), ["mouseMoved", ...PRESS_RELEASE, ...PRESS_RELEASE]);
  const [, press1, release1, press2] = sent.map(([, p]) => p);
  assertEquals([press1.button, press1.buttons, press1.clickCount, press1.modifiers], [
    "right",
    2,
    1,
    2,
  ]);
  assertEquals([release1.buttons, press2.clickCount], [0, 2]);
  assertEquals([press1.x, press1.y], [10, 20]);
});

Deno.test("sendClick sends every event at once; pressed waits for all but the last release", async () => {
  const answers: (() => void)[] = [];
  const sent: string[] = [];
  const session: TabSession = {
    tabId: 8,
    send<T>(_method: string, params: CdpParams = {}) {
      sent.push(String(params.type));
      return new Promise<T>((resolve) => answers.push(() => resolve({} as T)));
    },
    children: () => [],
  };
  const click = sendClick(session, 3, 4, { clickCount: 2 });
  assertEquals(sent, ["mouseMoved", ...PRESS_RELEASE, ...PRESS_RELEASE]);
  let pressed = false;
  let released = false;
  void click.pressed.then(() => (pressed = true));
  void click.released.then(() => (released = true));
  for (const answer of answers.slice(0, 4)) answer();
  await click.pressed;
  assertEquals([pressed, released], [true, false]);
  answers[4]();
  await click.released;
  assertEquals(released, true);
});

Deno.test("a second click at the same point does not move first; another point does", async () => {
  const { session, sent } = fakeSession();
  await mouseClick(session, 5, 5);
  await mouseClick(session, 5, 5);
  await mouseMove(session, 6, 5);
  await mouseClick(session, 5, 5);
  assertEquals(mouseTypes(sent), [
    "mouseMoved",
    ...PRESS_RELEASE,
    ...PRESS_RELEASE,
    "mouseMoved",
    "mouseMoved",
    ...PRESS_RELEASE,
  ]);
});

Deno.test("the wheel turns at the point by the deltas", async () => {
  const { session, sent } = fakeSession();
  await mouseWheel(session, 50, 60, 0, 120);
  const wheel = sent.find(([, p]) => p.type === "mouseWheel")![1];
  assertEquals([wheel.x, wheel.y, wheel.deltaX, wheel.deltaY], [50, 60, 0, 120]);
});

Deno.test("a pointer drag presses, moves in steps and releases at the end", async () => {
  const { session, sent } = fakeSession();
  const outcome = await mouseDrag(session, { x: 0, y: 0 }, { x: 80, y: 0 }, () => () => {});
  assertEquals(outcome.kind, "pointer");
  const types = mouseTypes(sent);
  assertEquals(types[0], "mouseMoved");
  assertEquals(types[1], "mousePressed");
  assertEquals(types.filter((t) => t === "mouseMoved").length, 1 + DRAG_STEPS);
  assertEquals(types.at(-1), "mouseReleased");
  const release = sent.findLast(([, p]) => p.type === "mouseReleased")![1];
  assertEquals([release.x, release.y], [80, 0]);
  const intercept = sent.filter(([m]) => m === "Input.setInterceptDrags").map(([, p]) => p.enabled);
  assertEquals(intercept, [true, false]);
});

Deno.test("an HTML5 drag the browser hands over is dropped on the end with its data", async () => {
  let emit: (method: string, params: CdpParams) => void = () => {};
  const data = { items: [{ mimeType: "text/plain", data: "item-c" }], dragOperationsMask: 1 };
  const { session, sent } = fakeSession((method, params) => {
    // Chromium reports the drag once the press and the first moves passed its threshold.
    if (params.type === "mouseMoved" && params.buttons === 1) {
      emit("Input.dragIntercepted", { data });
    }
    void method;
  });
  const outcome = await mouseDrag(session, { x: 0, y: 0 }, { x: 0, y: 90 }, (listener) => {
    emit = listener;
    return () => (emit = () => {});
  });
  assertEquals(outcome.kind, "html5");
  const drags = sent.filter(([m]) => m === "Input.dispatchDragEvent").map(([, p]) => p);
  assertEquals(drags.map((p) => p.type), ["dragEnter", "dragOver", "drop"]);
  assertEquals(drags.map((p) => [p.x, p.y, p.data]), [[0, 90, data], [0, 90, data], [0, 90, data]]);
  assertEquals(mouseTypes(sent).at(-1), "mouseReleased");
});
