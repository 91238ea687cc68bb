/**
 * The built-in browser methods: the one table both ends of `/ws` are typed from. The hub's
 * browser tools (server/browser_tools/) each name a method and take their input schema from
 * here; the extension (extension/src/worker/browser_methods/) has one handler per method, typed
 * by its parsed input and its result, so a missing, extra or misspelled name fails `deno check`.
 */
import type { z } from "zod";
import { boundedList } from "../clip.ts";
import { checkInput } from "../call_contract.ts";
import { DOM_METHODS, type DomResults } from "./dom.ts";
import { EXTENSION_METHODS, type ExtensionResults } from "./extension.ts";
import { PAGE_METHODS, type PageResults } from "./page.ts";
import { TAB_METHODS, type TabResults } from "./tabs.ts";
import { INPUT_METHODS, type InputResults } from "./input.ts";
import { DIALOG_METHODS, type DialogResults } from "./dialogs.ts";
import { NETWORK_METHODS, type NetworkResults } from "./network.ts";
import { DOWNLOAD_METHODS, type DownloadResults } from "./downloads.ts";
import { FILE_METHODS, type FileResults } from "./files.ts";

export type { BrowserMethodSpec } from "./spec.ts";
export { countSet, maxLengthField, selectorField, tabIdField } from "./fields.ts";
export { isOpenableUrl, type LoadedTab, type TabSummary, type WindowSummary } from "./tabs.ts";
export {
  type ActionNavigation,
  type DomAnswer,
  type DomMethodName,
  type NavigatingDomMethod,
  scrollMoves,
  type SnapshotResult,
  type WaitForResult,
} from "./dom.ts";
export * from "./refs.ts";
export * from "./dom_limits.ts";
export type { ConsoleLine, CookieSummary } from "./page.ts";

/** Every built-in browser method by name (`tool.dispatch` `method`). */
export const BROWSER_METHODS = {
  ...TAB_METHODS,
  ...DOM_METHODS,
  ...PAGE_METHODS,
  ...EXTENSION_METHODS,
  ...INPUT_METHODS,
  ...DIALOG_METHODS,
  ...NETWORK_METHODS,
  ...DOWNLOAD_METHODS,
  ...FILE_METHODS,
};

export type BrowserMethodName = keyof typeof BROWSER_METHODS;

/** A method's input after parsing: defaults applied, limits checked. */
export type BrowserInput<M extends BrowserMethodName> = z.output<
  (typeof BROWSER_METHODS)[M]["input"]
>;

type BrowserResults =
  & TabResults
  & DomResults
  & PageResults
  & ExtensionResults
  & InputResults
  & DialogResults
  & NetworkResults
  & DownloadResults
  & FileResults;

/** What a method answers (the `value` of a successful `tool.dispatch`). */
export type BrowserResult<M extends BrowserMethodName> = BrowserResults[M];

export const BROWSER_METHOD_NAMES = Object.keys(BROWSER_METHODS) as BrowserMethodName[];

export function isBrowserMethodName(name: unknown): name is BrowserMethodName {
  return typeof name === "string" && Object.hasOwn(BROWSER_METHODS, name);
}

/** At most this many problems are reported, each cut at PROBLEM_CHARS characters. */
const MAX_PROBLEMS = 3;
const PROBLEM_CHARS = 200;

/**
 * Parses a method's input with its schema through the hub's own argument check (`checkInput`,
 * protocol/call_contract.ts): the input with defaults applied, or a short list of what was wrong
 * (at most three lines of at most 200 characters, so a hostile input cannot make the answer
 * large).
 */
export function parseBrowserInput<M extends BrowserMethodName>(
  method: M,
  input: unknown,
): { ok: true; input: BrowserInput<M> } | { ok: false; problems: string[] } {
  const checked = checkInput(BROWSER_METHODS[method].input, input);
  if (checked.ok) return { ok: true, input: checked.input as BrowserInput<M> };
  const problems = boundedList(checked.problems.slice(0, MAX_PROBLEMS), {
    maxItems: MAX_PROBLEMS,
    maxItemChars: PROBLEM_CHARS,
    total: checked.problems.length,
    more: (left) => `and ${left} more`,
  });
  return { ok: false, problems };
}
