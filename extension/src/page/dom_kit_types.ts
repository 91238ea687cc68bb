/**
 * What the page-side DOM kit (`dom_kit.js`, injected into a tab's isolated world) and the
 * extension's methods agree on: where the kit lives on the isolated world's `globalThis`, its
 * version, and the plain JSON outcome every operation answers with. No code runs here.
 */
import { VERSION } from "../../../protocol/version.ts";
import { MAX_CHARS } from "../../../protocol/text_cap.ts";
import type { BrowserInput, DomMethodName } from "../../../protocol/browser_methods/mod.ts";
import type { CallResult } from "../../../protocol/call_contract.ts";
import type { ErrorPayload } from "../../../protocol/errors.ts";
import type { KitRef, RefRegistry, RefScheme } from "./dom_refs.ts";
import type { KitOnlyArgs, KitOnlyOp } from "./kit_only_ops.ts";

/** The property of the isolated world's `globalThis` that holds the kit. */
export const DOM_KIT_GLOBAL = "__hubDomKit";
/**
 * Follows the hub version, so a page that still holds an older kit (the extension was updated
 * without reloading the page) gets the new one injected. Bump the suffix when the kit's operations
 * change between releases.
 */
export const DOM_KIT_VERSION = `${VERSION}+14`;
/** The bundle `chrome.scripting.executeScript({ files })` injects (protocol/extension_files.ts). */
export const DOM_KIT_FILE = "dom_kit.js";

/**
 * What a truncated page text or HTML answer suggests next: the kit's `page.text`/`page.html`
 * (dom_read.ts) and the worker's text of a tab with frames (page_text_frames.ts) say the same.
 */
export const MORE_HINT = "Pass a selector to read one part of the page, or a larger maxLength " +
  `(at most ${MAX_CHARS}).`;

/**
 * The kit's operations: one per DOM method of the contract (protocol/browser_methods/dom.ts), by
 * the method's name, and the worker's own steps (kit_only_ops.ts).
 */
export type DomOp = DomMethodName | KitOnlyOp;

/**
 * An operation's arguments: the method's parsed input (defaults applied, limits checked) without
 * `tabId` and `frame` (the worker picked the document) and with `ref` resolved to this document's
 * element number (the worker found its document through the tab's frame table). The worker
 * parses every input before it calls the kit, and nothing else can reach the kit (it lives in the
 * extension's isolated world), so operations never repeat defaults or clamps.
 */
export type KitArgs<Op extends DomOp> =
  & (Op extends DomMethodName ? Omit<BrowserInput<Op>, "tabId" | "frame" | "ref">
    : Op extends KitOnlyOp ? KitOnlyArgs[Op]
    : never)
  & { ref?: KitRef };

/** The document's ref registry as an answer reports it, for the worker's frame table. */
export interface KitDoc {
  token: string;
  /** The highest element number handed out so far. */
  upTo: number;
}

/** What the kit remembers between operations in one page, and the current call's ref scheme. */
export interface KitState {
  /** The element the last hover entered (it gets the leave events on the next hover). */
  hovered?: Element;
  /** This document's refs. */
  refs: RefRegistry;
  /** How the current call writes the refs it hands out. */
  scheme: RefScheme;
}

/** Why an operation failed: the tool's error code (from HUB_ERRORS) and its message. */
export type KitError = Pick<ErrorPayload, "code" | "message">;

/**
 * An operation's answer, in the call contract's envelope (`CallResult`): its value, or its error
 * as far as the kit knows it (code and message). The worker completes the error from the error
 * table (`kitFailure` in dom_call.ts), so the kit carries no table.
 */
export type KitOutcome =
  | Extract<CallResult, { ok: true }> & { value: Record<string, unknown>; doc?: KitDoc }
  | { ok: false; error: KitError };

/**
 * The child frames a document shows, by the one hiding rule: the `indexes` (in its window's
 * `frames`) of its visible `iframe`, `frame`, `object` and `embed` elements; how many visible frame
 * elements sit in shadow roots (`shadowShown`: their frames have no index, -1) and whether one
 * there is hidden (`shadowHidden`). A child of index -1 is shown only when no shadow-root frame
 * element is hidden and at most `shadowShown` children answer -1.
 */
export interface FramesShown {
  indexes: number[];
  /**
   * The URL each shown frame element was given (`src`, an `<object>`'s `data`), by the same
   * position as `indexes` ("" for none): the worker places a frame whose site is off by it, since
   * nothing runs in that frame to tell its index (blocked_frames.ts).
   */
  sources?: string[];
  shadowShown: number;
  shadowHidden: boolean;
}

export interface DomKit {
  version: string;
  /**
   * Runs `op` with its arguments as they crossed from the worker (JSON); refs it hands out are
   * written by `scheme` (default: the top document's, from 1). Never throws.
   */
  run(op: string, args: unknown, scheme?: RefScheme): Promise<KitOutcome>;
  /**
   * The child frames this document shows (visible_text.ts framesShown): the worker reads a child
   * frame's content only when this allows it (browser_snapshot, browser_get_page_text,
   * browser_wait_for).
   */
  framesShown?(): FramesShown;
  /**
   * This document's index in its parent's `frames` (dom_frames.ts ownFrameIndex; a cross-origin
   * child may compare `parent[i]` with its own window); -1 at the top or when not listed there.
   */
  ownFrameIndex?(): number;
  /**
   * The `<iframe>` or `<frame>` a `frame` selector matches in this document: `{ index, tag }`,
   * index in this window's `frames` (-1 when it is not there). Never throws.
   */
  frameIndexOf?(selector: string): KitOutcome;
  /**
   * Element `n` of this document's ref registry when `token` is the registry's, else null: how the
   * debugger reaches a ref's element (worker/browser_methods/debugger_nodes.ts calls it with
   * Runtime.callFunctionOn in this isolated world). Never throws.
   */
  element?(token: string, n: number): Element | null;
}

/** One element as browser_query_elements and browser_wait_for_element describe it. */
export interface ElementInfo {
  /** Position among the selector's matches, from 0. */
  index: number;
  tag: string;
  /** Visible text, whitespace collapsed, at most 200 characters. */
  text: string;
  attributes: Record<string, string | boolean>;
  visible: boolean;
  /** The element's ref, for any tool that takes `ref`. */
  ref?: string;
  /** Viewport coordinates in CSS pixels, rounded. */
  rect: { x: number; y: number; width: number; height: number };
}
