/** Tabs and windows: listing, opening, navigating, closing, history and screenshots. */
import * as z from "zod";
import { DEFAULT_MAX_BYTES, MAX_MAX_BYTES, type Shot } from "../screenshot.ts";
import {
  AT_MOST_ONE_TARGET,
  atMostOneTarget,
  countSet,
  frameField,
  refField,
  selectorField,
  tabIdField,
  waitForLoadField,
} from "./fields.ts";
import type { BrowserMethodSpec } from "./spec.ts";
import type { DialogInfo, DialogType } from "./dialogs.ts";

/** http(s) URLs and about:blank; anything else (file:, javascript:, chrome:) is refused. */
export function isOpenableUrl(value: string): boolean {
  if (value === "about:blank") return true;
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

const waitForPage = z.object({
  tabId: tabIdField,
  waitForLoad: waitForLoadField("the page"),
});

export const TAB_METHODS = {
  "tabs.list": { input: z.object({}) },
  "tabs.navigate": {
    input: z.object({
      url: z.url({ protocol: /^https?$/ }).describe("Absolute http(s) URL to load."),
      tabId: tabIdField,
      waitForLoad: waitForLoadField(),
    }),
  },
  "tabs.open": {
    input: z.object({
      url: z.string().refine(isOpenableUrl, {
        message: 'must be an absolute http(s) URL (e.g. "https://example.com/") or "about:blank"',
      }).describe('Absolute http(s) URL, or "about:blank" for an empty tab.'),
      active: z.boolean().default(true).describe(
        "Make it the active tab of its window (default true). Does not focus the window.",
      ),
      windowId: z.number().int().min(1).optional().describe(
        "Window to open it in (from browser_list_windows). Omit for the last focused window.",
      ),
      waitForLoad: waitForLoadField(),
    }),
  },
  "tabs.close": {
    input: z.object({
      tabId: z.number().int().min(1).describe("Id of the tab to close."),
    }),
  },
  "tabs.focus": {
    input: z.object({
      tabId: z.number().int().min(1).describe("Id of the tab to focus (from browser_list_tabs)."),
    }),
  },
  "tabs.reload": {
    input: z.object({
      tabId: tabIdField,
      bypassCache: z.boolean().default(false).describe(
        "Ignore the browser cache, like Shift+Reload (default false).",
      ),
      waitForLoad: waitForLoadField(),
    }),
  },
  "tabs.back": { input: waitForPage },
  "tabs.forward": { input: waitForPage },
  "windows.list": { input: z.object({}) },
  "tabs.screenshot": {
    input: z.object({
      tabId: tabIdField,
      ref: refField(
        "the element to capture alone, whole, even where it is larger than the window",
      ),
      selector: selectorField("the element to capture"),
      frame: frameField,
      fullPage: z.boolean().default(false).describe(
        "Capture the whole page, top to bottom, not only what the window shows (default false).",
      ),
      maxBytes: z.number().int().min(1000).max(MAX_MAX_BYTES).default(DEFAULT_MAX_BYTES)
        .describe(
          `Largest image to return, in bytes (1000-${MAX_MAX_BYTES}, default ` +
            `${DEFAULT_MAX_BYTES}). A larger PNG comes back as a smaller JPEG.`,
        ),
      save: z.boolean().default(false).describe(
        "Also save the image in the hub's screenshots folder and return its path (default false).",
      ),
    }).refine(atMostOneTarget, { message: AT_MOST_ONE_TARGET })
      .refine((input) => !input.fullPage || countSet(input, ["ref", "selector"]) === 0, {
        message: "pass fullPage or an element (ref or selector), not both",
      })
      .refine((input) => input.frame === undefined || countSet(input, ["ref", "selector"]) > 0, {
        message: "frame goes with selector: it names the frame the selector applies in",
      }),
  },
} satisfies Record<string, BrowserMethodSpec>;

/** One open tab, as `tabs.list` describes it. */
export interface TabSummary {
  tabId: number;
  windowId: number;
  url: string;
  title: string;
  active: boolean;
  status: string;
  /** The alert, confirm, prompt or beforeunload dialog open in the tab (browser_handle_dialog). */
  dialog: { type: DialogType; message: string } | null;
  /**
   * One of the agent's tabs: in a tab group titled "hub" (the tabs browser tools read or acted on,
   * and those a person dragged in), or opened by the agent with browser_open_tab.
   */
  agentGroup: boolean;
}

/** One window, as `windows.list` describes it. */
export interface WindowSummary {
  windowId: number;
  focused: boolean;
  state: string;
  type: string;
  incognito: boolean;
  tabCount: number;
  activeTabId: number | null;
  left: number | null;
  top: number | null;
  width: number | null;
  height: number | null;
}

/** A tab after a navigating method; `loaded` is false when the wait ran out or was skipped. */
export interface LoadedTab {
  tabId: number;
  url: string;
  title: string;
  loaded: boolean;
  /** A dialog that opened and holds the navigation (a page's beforeunload): browser_handle_dialog. */
  dialog?: DialogInfo;
}

/** What each method of this file answers. */
export interface TabResults {
  "tabs.list": { tabs: TabSummary[] };
  "tabs.navigate": LoadedTab;
  "tabs.open": LoadedTab & { windowId: number };
  /** `closed: false` with the `dialog` when the page asks before it is left (beforeunload). */
  "tabs.close": { tabId: number; closed: boolean; dialog?: DialogInfo };
  "tabs.focus": { tabId: number; windowId: number; url: string; title: string };
  "tabs.reload": LoadedTab;
  "tabs.back": LoadedTab;
  "tabs.forward": LoadedTab;
  "windows.list": { windows: WindowSummary[] };
  "tabs.screenshot": Shot;
}
