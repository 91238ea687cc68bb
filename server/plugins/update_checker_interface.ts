/**
 * What the hub's parts need of the background update check of plugin packages: start, check
 * now, what it found, forget a package. Declared apart from the implementation (./update_check.ts:
 * the timer, the interval, the registry lookups), so changes/ and the extension handlers depend on
 * this shape only.
 */
import type { UpdateCheck } from "../../protocol/packages.ts";

export interface UpdateChecker {
  /** Starts the timer; call once the hub is ready. */
  start(): void;
  /** Re-reads the interval now (after a config change). */
  reconsider(): void;
  /** Runs a check now (or joins the one running) and answers what it found. */
  checkNow(): Promise<UpdateCheck>;
  /** What the last check found; undefined before the first one. */
  current(): UpdateCheck | undefined;
  /** Forgets the update of a package that was just updated or removed. */
  forget(packageName: string): void;
  /** Clears the timer; no check starts afterwards. */
  stop(): void;
}
