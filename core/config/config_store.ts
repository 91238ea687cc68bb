/**
 * `config.json`: loaded with clear errors, never silently overwritten, written atomically, and with
 * every update serialized (a queue inside this process, a lock file across processes) so that
 * concurrent writers never lose each other's changes.
 */
import { dirname } from "node:path";
import { describeJsonError, withJsonErrors } from "../files/json_errors.ts";
import { defaultConfig, type HubConfig, type ParsedConfig, validateConfig } from "./schema.ts";
import {
  type AtomicWriteOptions,
  createFileAtomic,
  writeFileAtomic,
} from "../files/atomic_write.ts";
import { withFileLock } from "../files/file_lock.ts";
import { UserError } from "../cli/user_error.ts";
import {
  moveAwayAdvice,
  readBoundedText,
  unusableFile,
  unusableFileMessage,
} from "../files/bounded_read.ts";
import { parseBoundedJson } from "../files/json_depth.ts";
import { MAX_CONFIG_FILE_BYTES } from "./file_limits.ts";

/** The code of a config file (`config.json`, `auth.json`) that exists but cannot be used. */
export const UNUSABLE_CONFIG = "UNUSABLE_CONFIG";

/** A config file that exists but cannot be used. The message names the file, the spot and the fix. */
export function configError(message: string): UserError {
  return new UserError(message, { code: UNUSABLE_CONFIG });
}

export interface ConfigStoreOptions {
  /** Called with a warning a person should see (unknown keys), once per key per store. */
  onWarning?: (message: string) => void;
  /** Injected rename, for crash tests. */
  rename?: AtomicWriteOptions["rename"];
}

export interface ConfigStore {
  readonly path: string;
  exists(): Promise<boolean>;
  /** Reads the file; a missing file yields the defaults. Throws `configError` if unusable. */
  load(): Promise<HubConfig>;
  /**
   * Creates the file with every default if it is missing; the config in force either way, and
   * whether this call created the file.
   */
  ensure(): Promise<{ created: boolean; config: HubConfig }>;
  /** Re-reads the file under the lock, lets `mutate` change it in place, writes the result. */
  update(mutate: (config: HubConfig) => void): Promise<HubConfig>;
  /** Deletes the file (it is recreated with defaults on the next start). Returns true if it existed. */
  remove(): Promise<boolean>;
}

const RESET_HINT = 'or run "hub config reset --confirm" to start over with defaults ' +
  "(this discards your settings)";

export function createConfigStore(path: string, options: ConfigStoreOptions = {}): ConfigStore {
  const lockPath = `${path}.lock`;
  const warned = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  // The config dir may not exist yet (a command that writes config before the first start).
  const makeDir = () => Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });

  /** Runs `task` after every earlier task of this store, holding the cross-process lock. */
  function serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      await makeDir();
      return withFileLock(lockPath, task);
    });
    queue = run.catch(() => {});
    return run;
  }

  async function read(): Promise<ParsedConfig | undefined> {
    const parsed = await readConfigFile(path);
    for (const key of parsed?.unknownKeys ?? []) {
      if (warned.has(key)) continue;
      warned.add(key);
      options.onWarning?.(
        `${path}: unknown key "${key}" is kept but ignored (check its spelling).`,
      );
    }
    for (const { where, key } of parsed?.droppedKeys ?? []) {
      if (warned.has(`${where}\n${key}`)) continue;
      warned.add(`${where}\n${key}`);
      options.onWarning?.(
        `${path}: "${key}" in ${where} is a reserved name (a built-in JavaScript object member) ` +
          "and is ignored; the next change to the config removes it.",
      );
    }
    return parsed;
  }

  const write = (config: HubConfig, extra: Record<string, unknown>) =>
    writeFileAtomic(path, configText(config, extra), {
      mode: 0o600,
      rename: options.rename,
    });

  return {
    path,
    exists: () => Deno.stat(path).then(() => true, () => false),
    load: async () => (await read())?.config ?? defaultConfig(),
    // Every start calls this, so it avoids the lock, whose owner record runs `ps`. A file that is
    // there with no lock beside it (nearly always) costs a read and a stat. A missing one is
    // created only if it is still missing (a hard link, see createFileAtomic): a writer that gets
    // there first wins, and its file is read and checked instead. With a lock there, such as one
    // left by a killed writer, it goes through the lock like every writer, which clears it; so
    // does a creation that failed otherwise, or whose rival file is gone again.
    ensure: async () => {
      const found = (parsed: ParsedConfig) => ({ created: false, config: parsed.config });
      const made = { created: true, config: defaultConfig() };
      if (!(await Deno.lstat(lockPath).then(() => true, () => false))) {
        const parsed = await read(); // a broken file throws here, writing nothing
        if (parsed) return found(parsed);
        await makeDir();
        const created = await createFileAtomic(path, configText(made.config, {}));
        if (created === true) return made;
        const rival = created === false ? await read() : undefined; // another writer's, checked
        if (rival) return found(rival);
      }
      return serialized(async () => {
        const parsed = await read();
        if (parsed) return found(parsed);
        await write(made.config, {});
        return made;
      });
    },
    update: (mutate) =>
      serialized(async () => {
        const current = (await read()) ?? {
          config: defaultConfig(),
          extra: {},
          unknownKeys: [],
          droppedKeys: [],
        };
        const draft = structuredClone(current.config);
        mutate(draft);
        const checked = validateConfig(draft).config;
        await write(checked, current.extra);
        return checked;
      }),
    remove: () => serialized(() => Deno.remove(path).then(() => true, notFoundAs(false))),
  };
}

/** The file's text: the config, then the keys it does not know, kept as they were. */
function configText(config: HubConfig, extra: Record<string, unknown>): string {
  return JSON.stringify({ ...config, ...extra }, null, 2) + "\n";
}

function notFoundAs<T>(value: T) {
  return (error: unknown): T => {
    if (error instanceof Deno.errors.NotFound) return value;
    throw error;
  };
}

/** Reads and parses the config file; undefined when it does not exist. */
async function readConfigFile(path: string): Promise<ParsedConfig | undefined> {
  const text = await readConfigText(path);
  return text === undefined ? undefined : parseConfig(path, text);
}

/**
 * The config file's text, bounded (a regular file of at most MAX_CONFIG_FILE_BYTES, read in bounded
 * time); undefined when it does not exist; a `configError` with the fix when it cannot be read.
 */
export async function readConfigText(path: string): Promise<string | undefined> {
  try {
    return await readBoundedText(path, { maxBytes: MAX_CONFIG_FILE_BYTES });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw unreadableConfig(path, error);
  }
}

/** Why config.json could not be read, with the fix; an unusable file's own words say what it is. */
function unreadableConfig(path: string, error: unknown): UserError {
  const unusable = unusableFile(error);
  if (unusable) {
    const fix = `${moveAwayAdvice(path)} and put a regular file there, ${RESET_HINT}`;
    return configError(`${unusableFileMessage(path, unusable, fix)}.`);
  }
  return configError(`Cannot read ${path}: ${(error as Error).message}`);
}

/**
 * `parseConfigText` for callers that may wait: broken JSON is described once jsonc-parser is
 * loaded, so its error names the spot even in a process that has not loaded it yet.
 */
export function parseConfig(path: string, text: string): Promise<ParsedConfig> {
  return withJsonErrors(() => parseConfigText(path, text));
}

/** Parses and validates config text; errors name the file, the line and column, and the fix. */
export function parseConfigText(path: string, text: string): ParsedConfig {
  let value: unknown;
  try {
    value = parseBoundedJson(text);
  } catch (error) {
    throw configError(
      `Cannot read ${path}: invalid JSON${describeJsonError(text, (error as Error).message)}. ` +
        `Fix the file by hand, ${RESET_HINT}.`,
    );
  }
  try {
    return validateConfig(value);
  } catch (error) {
    throw configError(
      `Cannot use ${path}: ${(error as Error).message}. ` +
        `Fix the value by hand or with "hub config set", ${RESET_HINT}.`,
    );
  }
}
