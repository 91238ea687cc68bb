/**
 * The kit's operations that no browser method names one to one: the worker calls them on its way
 * to a method's answer (trusted input finds an element's point on screen with one, then acts
 * through the debugger). Each entry is the operation's name and its arguments as they cross from
 * the worker (JSON); a ref in them is resolved by the worker as for any operation (`ref: KitRef`).
 */
import type { KitRef } from "./dom_refs.ts";

export interface KitOnlyArgs {
  /** Where trusted input acts on an element, or on the frame element of a child frame. */
  "dom.point": PointArgs;
  /** After trusted input: ends dom.point's navigation watch, describes the element. */
  "dom.acted": ActedArgs;
  /** Before trusted keys: focuses the element (for typing: selects its text) and watches them. */
  "dom.focus": FocusArgs;
  /** After trusted keys: what they did; after typing: the value, `change`, submit. */
  "dom.keysDone": KeysDoneArgs;
  /** A custom dropdown's open option, by name, value or index, with a ref to click it. */
  "dom.option": OptionArgs;
}

export type KitOnlyOp = keyof KitOnlyArgs;

/** What `dom.focus` is asked (page/dom_focus.ts), besides the element's ref. */
export interface FocusArgs {
  /** The element; none (with no ref): the focused element stays (`key` only). */
  selector?: string;
  /** `type`: a text field for browser_type_text; `key`: any element. */
  purpose: "type" | "key";
  /** For typing: the text, and whether it replaces what the field holds. */
  text?: string;
  clear?: boolean;
}

/** What `dom.keysDone` is asked: after typing, whether to submit. */
export interface KeysDoneArgs {
  submit?: boolean;
}

/**
 * What `dom.option` is asked, besides the control's ref: the control's selector, exactly one way to
 * name the option, how long to wait for it to show, and `probe` (answer `{ found: false }` instead
 * of failing).
 */
export interface OptionArgs {
  selector?: string;
  value?: string;
  label?: string;
  index?: number;
  waitMs?: number;
  probe?: boolean;
}

/** A rectangle in one document's viewport, CSS pixels. */
export interface PointRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What `dom.point` is asked. */
export interface PointArgs {
  ref?: KitRef;
  selector?: string;
  /** Instead of an element: the frame element holding child frame `frameIndex` of this window. */
  frameIndex?: number;
  /** Scroll the element (or frame element) into view when not all of it shows. */
  scroll: boolean;
  /** Look at what the browser would hit at the point. */
  hitCheck: boolean;
  /** With frameIndex: the child frame's answer, in the child's viewport. */
  inner?: { box: PointRect; visible: PointRect | null };
  /** Start the navigation watch that `dom.acted` ends. */
  watch?: boolean;
  /**
   * After a scroll, wait until it is drawn (a wheel turn is routed by the last drawn frame; a
   * click in the top document is hit-tested by the page itself and need not wait).
   */
  paint?: boolean;
}

/** What covers the point, as an agent can name it. */
export interface Covering {
  tag: string;
  role?: string;
  name?: string;
  ref?: string;
}

/** What `dom.point` answers, in this document's viewport. */
export interface PointAnswer {
  box: PointRect;
  /** The visible part (null: none shows: hidden, empty, or clipped away). */
  visible: PointRect | null;
  /** This document's index in its parent's `frames` (-1 at the top). */
  frameIndex: number;
  /** The element (not for a frame element): tag, short text, ref. */
  info?: { tag: string; text: string; ref: string; draggable: boolean };
  covering?: Covering;
  /** The element cannot take pointer input at a point (an `<option>`, an `<area>`). */
  pointless?: true;
  /**
   * The page is not shown (a background tab, a minimized window): Chromium delivers no mouse
   * input to it, so nothing was scrolled or checked.
   */
  hidden?: true;
}

/** What `dom.acted` is asked: the element `dom.point` gave a ref (to describe it after). */
export interface ActedArgs {
  ref?: KitRef;
  /** How to read its text: textContent (a click's answer) or innerText (a hover's). */
  text?: "content" | "inner";
  /**
   * Read the element's own scroll box instead (browser_scroll's wheel): NOT_SCROLLABLE when it
   * has none for this move (x/y in pixels, or `to` an edge), else its state (`box`).
   */
  box?: { x?: number; y?: number; to?: "top" | "bottom" };
  /** How messages name the element (`ref "e12"`, a quoted selector). */
  what?: string;
  /**
   * A click's read sent before its last release answered: answer only once the watch `dom.point`
   * started saw this many trusted `mouseup`s; before that, `{ early: true }` and the watch goes on
   * (the worker reads again after the release).
   */
  ups?: number;
}
