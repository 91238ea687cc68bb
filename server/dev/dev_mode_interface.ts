/**
 * What the wiring and /health need of dev mode: the watchers' status, waiting until they are idle
 * (tests), closing. Declared apart from the implementation (./dev_mode.ts: the watchers, the
 * config edits, the rebuilds), so the parts above depend on this shape only.
 */
import type { FileWatcherStatus } from "../../protocol/health.ts";

export interface DevMode {
  status(): FileWatcherStatus;
  /** Resolves once the watcher runs and no change waits (tests). */
  idle(): Promise<void>;
  close(): void;
}
