/**
 * What every plugin package operation shares: npm, the global root, the config store, time limits,
 * progress reports, serialization per package (a queue inside this process, a lock file in the
 * config dir across processes: the hub and a `hub plugin` command never run npm on the same package
 * at once) and a scratch folder per operation (an empty npm cache, so that npm asks the registry
 * itself instead of answering from a warm cache, and a staging prefix).
 */
import { dirname, join } from "node:path";
import type { PackageOperation, PackageProgress } from "../../protocol/packages.ts";
import type { ConfigStore } from "../config/config_store.ts";
import { withFileLock } from "../files/file_lock.ts";
import { type NpmResult, type NpmRunner, registryOf } from "../process/npm_runner.ts";
import { createKeyedQueue } from "./keyed_queue.ts";
import { npmFailure } from "./npm_failure.ts";
import type { PackageError } from "./package_error.ts";

/** Time limit of one npm call that installs, updates or removes. */
export const CHANGE_TIMEOUT_MS = 120_000;
/** Time limit of one npm call that searches or looks a version up. */
export const LOOKUP_TIMEOUT_MS = 30_000;
/** Added to the package lock's limits for what surrounds the npm calls (and stopping them). */
const LOCK_MARGIN_MS = 30_000;

export interface PackageContextOptions {
  globalRoot: () => Promise<string>;
  store: ConfigStore;
  npm: NpmRunner;
  timeoutMs?: number;
  onProgress?: (progress: PackageProgress) => void;
}

export interface PackageContext {
  npm: NpmRunner;
  globalRoot: () => Promise<string>;
  store: ConfigStore;
  /** Time limit of an npm call that changes packages. */
  changeMs: number;
  /** Time limit of an npm call that only reads the registry. */
  lookupMs: number;
  progress(operation: PackageOperation, name: string | undefined, message: string): void;
  done(operation: PackageOperation, name: string | undefined, message: string): void;
  /** Runs `task` once no other operation on `packageName` runs, here or in another process. */
  serialize<T>(packageName: string, task: () => Promise<T>): Promise<T>;
  /** The package error for a failed npm call (asks npm for its registry, for the message). */
  failure(result: NpmResult, what: FailureWhat): Promise<PackageError>;
}

export interface FailureWhat {
  doing: string;
  name: string;
  timeoutMs: number;
  command: string;
}

export function createPackageContext(options: PackageContextOptions): PackageContext {
  const queue = createKeyedQueue();
  const changeMs = options.timeoutMs ?? CHANGE_TIMEOUT_MS;
  const lookupMs = options.timeoutMs ?? LOOKUP_TIMEOUT_MS;
  // The longest another process may hold a package's lock: three npm calls that change packages
  // and one lookup, each stopped at its limit. Where that owner cannot be looked up, its lock is
  // taken as abandoned only after this, never in the middle of a slow install.
  const holdMs = 3 * changeMs + lookupMs + LOCK_MARGIN_MS;
  const lockDir = join(dirname(options.store.path), "package-locks");
  const report = (progress: PackageProgress) => {
    try {
      options.onProgress?.(progress);
    } catch {
      // a listener's failure is not the operation's
    }
  };
  return {
    npm: options.npm,
    globalRoot: options.globalRoot,
    store: options.store,
    changeMs,
    lookupMs,
    progress: (operation, name, message) => report({ operation, name, message, done: false }),
    done: (operation, name, message) => report({ operation, name, message, done: true }),
    serialize: (packageName, task) =>
      queue.run(packageName, async () => {
        await Deno.mkdir(lockDir, { recursive: true, mode: 0o700 });
        const lock = join(lockDir, `${packageName.replace("/", "+")}.lock`);
        return withFileLock(lock, task, { timeoutMs: holdMs + LOCK_MARGIN_MS, staleMs: holdMs });
      }),
    failure: async (result, what) =>
      npmFailure(result, { ...what, registry: await registryOf(options.npm) }),
  };
}

/** Runs `fn` with a fresh scratch folder that is removed afterwards. */
export async function withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "hub-plugin-package-" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
