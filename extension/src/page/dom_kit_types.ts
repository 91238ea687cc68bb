/**
 * What the page-side DOM kit (`dom_kit.js`, injected into a tab's isolated world) and the
 * extension's methods agree on: where the kit lives on the isolated world's `globalThis`, its
 * version, and the plain JSON outcome every operation answers with. No code runs here.
 */
import { VERSION } from "../../../protocol/version.ts";

/** The property of the isolated world's `globalThis` that holds the kit. */
export const DOM_KIT_GLOBAL = "__hubDomKit";
/**
 * Follows the hub version, so a page that still holds an older kit (the extension was updated
 * without reloading the page) gets the new one injected. Bump the suffix when the kit's operations
 * change between releases.
 */
export const DOM_KIT_VERSION = `${VERSION}+1`;
/** The bundle `chrome.scripting.executeScript({ files })` injects (protocol/extension_files.ts). */
export const DOM_KIT_FILE = "dom_kit.js";

/** The names of the kit's operations. */
export type DomOp =
  | "text"
  | "html"
  | "query"
  | "wait"
  | "click"
  | "type"
  | "select"
  | "key"
  | "scroll"
  | "hover";

/** An operation's answer: its value, or why it failed (`reason` is the tool's error code). */
export type KitOutcome =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; reason: string; message: string };

export interface DomKit {
  version: string;
  run(op: string, args: Record<string, unknown>): Promise<KitOutcome>;
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
  /** Viewport coordinates in CSS pixels, rounded. */
  rect: { x: number; y: number; width: number; height: number };
}
