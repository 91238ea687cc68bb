/** Lets the page ask for a new readiness probe, for example right after the user logged in. */
import { postPageEvent } from "./channel.ts";

export function notifyReadinessChanged(): void {
  postPageEvent({ kind: "readiness" });
}
