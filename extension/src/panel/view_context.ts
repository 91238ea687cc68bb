/** What every panel view gets from the entry: how to send a command and how to announce. */
import type { PanelCommand, PanelResult } from "../shared/panel_messages.ts";

export interface ViewContext {
  /**
   * Sends a command to the worker; resolves with its result, rejects with the error text of a
   * failed reply (a `CommandError`, panel_messages.ts, with the hub's code).
   */
  send<C extends PanelCommand>(command: C): Promise<PanelResult<C>>;
  /** Says `text` through the live region (`assertive` for errors). */
  announce(text: string, assertive?: boolean): void;
  /** The clock (tests and the countdown share it). */
  now(): number;
}

/** The message of a failed command, for inline display. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
