/** Lets the page ask for a new readiness probe, for example right after the user logged in. */
import { postPageEvent } from "./channel.ts";
import { pluginState } from "./_state.ts";

export function notifyReadinessChanged(): void {
  postPageEvent({ kind: "readiness", plugin: pluginState.name });
}
