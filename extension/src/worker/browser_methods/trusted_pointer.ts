/**
 * Real mouse input through the debugger (`Input.dispatchMouseEvent` on the tab's page session):
 * moves, clicks (any button, double and triple clicks, with modifiers held), wheel turns and drags.
 * Chromium routes each event as it routes a person's, by hit testing at the point: the page sees
 * trusted events (`isTrusted`), CSS `:hover` follows, and an event over an out-of-process frame
 * reaches that frame. Points are the top-level viewport's CSS pixels.
 *
 * The commands of one gesture are sent without waiting for each answer: the debugger runs a
 * session's commands in order, so the gesture stays in order and costs one round trip. An HTML5
 * drag (a `draggable` source) goes through `Input.setInterceptDrags`: Chromium hands the drag to
 * the debugger (`Input.dragIntercepted`) instead of starting the system's drag loop, and
 * `Input.dispatchDragEvent` plays it over the target.
 */
import type { TabSession } from "../debugger_sessions.ts";

export type MouseButton = "left" | "right" | "middle";
export type Modifier = "Alt" | "Control" | "Meta" | "Shift";

/** The debugger's bit of each modifier key (Input.dispatchMouseEvent `modifiers`). */
const MODIFIER_BITS: Record<Modifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
/** The debugger's bit of each pressed button (`buttons`). */
const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

type Point = { x: number; y: number };

/** The `modifiers` bit field of `modifiers`. */
export function modifierBits(modifiers: readonly Modifier[] = []): number {
  return modifiers.reduce((bits, name) => bits | MODIFIER_BITS[name], 0);
}

/**
 * Where each session's mouse is: the last point hub sent it to. A click or a wheel turn there
 * needs no move first (as a person's second click on a button), which saves one event's round
 * trip; a new session (the tab attached again) starts with none.
 */
const mouseAt = new WeakMap<TabSession, Point>();

function mouse(session: TabSession, params: Record<string, unknown>): Promise<unknown> {
  if (typeof params.x === "number" && typeof params.y === "number") {
    mouseAt.set(session, { x: params.x, y: params.y });
  }
  return session.send("Input.dispatchMouseEvent", params);
}

/** The move to (x, y) a gesture starts with, unless the mouse is there already. */
function moveTo(session: TabSession, x: number, y: number, modifiers = 0): Promise<unknown>[] {
  const at = mouseAt.get(session);
  if (at && at.x === x && at.y === y) return [];
  return [mouse(session, { type: "mouseMoved", x, y, button: "none", buttons: 0, modifiers })];
}

/** Moves the mouse to (x, y) with no button pressed: hover. */
export async function mouseMove(session: TabSession, x: number, y: number): Promise<void> {
  await mouse(session, { type: "mouseMoved", x, y, button: "none", buttons: 0 });
}

/**
 * Moves to (x, y) and clicks there: `clickCount` presses and releases of `button` (2: a double
 * click, `dblclick` after the second release), `modifiers` held throughout.
 */
export async function mouseClick(
  session: TabSession,
  x: number,
  y: number,
  options: ClickOptions = {},
): Promise<void> {
  const { pressed, released } = sendClick(session, x, y, options);
  await Promise.all([pressed, released]);
}

export interface ClickOptions {
  button?: MouseButton;
  clickCount?: number;
  modifiers?: Modifier[];
}

/**
 * Sends `mouseClick`'s events at once and answers two stages: `pressed` when every event but the
 * last release answered (the page handled the last press), `released` when that last one did.
 * A caller may start reading the page between the two (dom.click's read after, ActedArgs.ups).
 */
export function sendClick(
  session: TabSession,
  x: number,
  y: number,
  options: ClickOptions = {},
): { pressed: Promise<void>; released: Promise<void> } {
  const button = options.button ?? "left";
  const modifiers = modifierBits(options.modifiers);
  const sent = moveTo(session, x, y, modifiers);
  const count = options.clickCount ?? 1;
  let released: Promise<unknown> = Promise.resolve();
  for (let n = 1; n <= count; n++) {
    const at = { x, y, button, modifiers, clickCount: n };
    sent.push(mouse(session, { type: "mousePressed", buttons: BUTTON_BITS[button], ...at }));
    const release = mouse(session, { type: "mouseReleased", buttons: 0, ...at });
    if (n < count) sent.push(release);
    else released = release;
  }
  const pressed = Promise.all(sent).then(() => {});
  // Whoever awaits `pressed` first still hears a failed release when it awaits `released`.
  released.catch(() => {});
  return { pressed, released: released.then(() => {}) };
}

/** Turns the wheel at (x, y) by `deltaX`/`deltaY` CSS pixels (positive: right, down). */
export async function mouseWheel(
  session: TabSession,
  x: number,
  y: number,
  deltaX: number,
  deltaY: number,
): Promise<void> {
  await Promise.all([
    ...moveTo(session, x, y),
    mouse(session, { type: "mouseWheel", x, y, deltaX, deltaY, button: "none", buttons: 0 }),
  ]);
}

/** How many moves a drag makes between its ends (pointer sliders follow each). */
export const DRAG_STEPS = 8;
/** How long a drag waits for Chromium to hand an HTML5 drag over, after the first moves. */
export const DRAG_INTERCEPT_MS = 150;

/** What a drag did: `html5` when the page started an HTML5 drag that was dropped on the target. */
export interface DragOutcome {
  kind: "pointer" | "html5";
}

/** The debugger events a drag listens to (sessions.onEvent), for one tab. */
export type DragEvents = (
  listener: (method: string, params: Record<string, unknown>) => void,
) => () => void;

/**
 * Presses the left button at `from`, moves in DRAG_STEPS steps to `to` and releases there. When
 * the press started an HTML5 drag (Chromium reports `Input.dragIntercepted`, waited for up to
 * DRAG_INTERCEPT_MS unless `mayStartHtml5` is false), the drag is played over the target instead:
 * dragEnter, dragOver and drop at `to` with the drag's data, then the release.
 */
export async function mouseDrag(
  session: TabSession,
  from: Point,
  to: Point,
  events: DragEvents,
  options: { mayStartHtml5?: boolean } = {},
): Promise<DragOutcome> {
  let data: unknown;
  let caught = () => {};
  const intercepted = new Promise<void>((resolve) => (caught = resolve));
  const stop = events((method, params) => {
    if (method === "Input.dragIntercepted" && data === undefined) {
      data = params.data;
      caught();
    }
  });
  try {
    await session.send("Input.setInterceptDrags", { enabled: true });
    const step = (i: number) => ({
      x: from.x + ((to.x - from.x) * i) / DRAG_STEPS,
      y: from.y + ((to.y - from.y) * i) / DRAG_STEPS,
    });
    const held = { button: "left", buttons: 1, clickCount: 1 };
    await Promise.all([
      mouse(session, { type: "mouseMoved", ...from, button: "none", buttons: 0 }),
      mouse(session, { type: "mousePressed", ...from, ...held }),
      // Two small moves pass Chromium's drag threshold: an HTML5 drag starts here.
      mouse(session, { type: "mouseMoved", ...step(1), ...held }),
      mouse(session, { type: "mouseMoved", ...step(2), ...held }),
    ]);
    // A source that cannot start an HTML5 drag (a slider's thumb) is not waited for.
    if (data === undefined && options.mayStartHtml5 !== false) {
      await Promise.race([intercepted, new Promise((r) => setTimeout(r, DRAG_INTERCEPT_MS))]);
    }
    if (data !== undefined) {
      const drag = { ...to, data, modifiers: 0 };
      await session.send("Input.dispatchDragEvent", { type: "dragEnter", ...drag });
      await session.send("Input.dispatchDragEvent", { type: "dragOver", ...drag });
      await session.send("Input.dispatchDragEvent", { type: "drop", ...drag });
      await mouse(session, { type: "mouseReleased", ...to, ...held, buttons: 0 });
      return { kind: "html5" };
    }
    const moves = [];
    for (let i = 3; i <= DRAG_STEPS; i++) {
      moves.push(mouse(session, { type: "mouseMoved", ...step(i), ...held }));
    }
    moves.push(mouse(session, { type: "mouseReleased", ...to, ...held, buttons: 0 }));
    await Promise.all(moves);
    return { kind: "pointer" };
  } finally {
    stop();
    await session.send("Input.setInterceptDrags", { enabled: false }).catch(() => {});
  }
}
