/**
 * What the hub's parts need of the confirmations an "ask" permission waits for: ask the person
 * through the side panel, take their answer, fail the waiting ones. Declared apart from the
 * implementation (./confirmations.ts: the ids, the timeout), so the extension handlers depend on
 * this shape only.
 */
import type { ExtensionParams } from "../../protocol/events.ts";

export interface Decision {
  allow: boolean;
  alwaysAllow: boolean;
}

export interface ConfirmationRequest {
  id: string;
  tool: string;
  plugin: string;
  parameters: Record<string, unknown>;
  /**
   * Set when the question is about a site, not the tool: "Allow agents to use <site>?" (its key,
   * `app.example.com`), sent as `confirmation.request`'s `site`.
   */
  site?: string;
}

export interface Confirmations {
  ask(request: ConfirmationRequest, signal?: AbortSignal): Promise<Decision>;
  respond(response: ExtensionParams<"confirmation.response">): void;
  /** Fails every waiting confirmation (the extension went away). */
  failAll(reason: string): void;
  pending(): number;
}
