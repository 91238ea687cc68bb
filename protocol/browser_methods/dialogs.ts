/** JavaScript dialogs (alert, confirm, prompt, beforeunload) of a tab. */
import * as z from "zod";
import { tabIdField } from "./fields.ts";
import type { BrowserMethodSpec } from "./spec.ts";

/** The longest text `promptText` may hold. */
export const PROMPT_TEXT_MAX_CHARS = 10_000;

export const DIALOG_METHODS = {
  "tabs.handleDialog": {
    input: z.object({
      tabId: tabIdField,
      accept: z.boolean().describe(
        "true presses OK (accepts a confirm, submits a prompt, leaves the page on a " +
          "beforeunload dialog); false presses Cancel (an alert closes either way).",
      ),
      promptText: z.string().max(PROMPT_TEXT_MAX_CHARS).optional().describe(
        "The text to answer a prompt() with when accepting. Omit to keep the prompt's default " +
          "text.",
      ),
    }),
  },
} satisfies Record<string, BrowserMethodSpec>;

/** The kinds of JavaScript dialog a page can open. */
export type DialogType = "alert" | "confirm" | "prompt" | "beforeunload";

/** An open dialog: its kind, its message and, for a prompt, its default text. */
export interface DialogInfo {
  type: DialogType;
  message: string;
  defaultPrompt?: string;
}

/** What each method of this file answers. */
export interface DialogResults {
  "tabs.handleDialog": {
    tabId: number;
    /** The dialog that was answered. */
    handled: { type: DialogType; message: string };
    /** The dialog that opened right after it (a confirm followed by an alert), or null. */
    dialog: DialogInfo | null;
  };
}
