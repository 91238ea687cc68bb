/**
 * The shared secret in `extension/auth.json` (`{ "secret": "<64 hex chars>" }`, mode 0600). The
 * file is the source of truth: the server re-reads it on reload, the CLI reads it to call the server.
 */
import {
  moveAwayAdvice,
  readBoundedTextIfExists,
  unusableFile,
  unusableFileMessage,
} from "../files/bounded_read.ts";
import { MAX_AUTH_FILE_BYTES } from "./file_limits.ts";
import { dirname } from "node:path";
import { writeFileAtomic } from "../files/atomic_write.ts";
import { configError } from "./config_store.ts";

const SECRET_PATTERN = /^[0-9a-f]{64}$/;

/** 256 random bits from the platform CSPRNG, as 64 lowercase hex characters. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parses the text of `auth.json`; throws a `configError` with the fix when it is not valid. */
export function parseSecret(authPath: string, text: string): string {
  let secret: unknown;
  try {
    secret = (JSON.parse(text) as { secret?: unknown })?.secret;
  } catch {
    secret = undefined;
  }
  if (typeof secret !== "string" || !SECRET_PATTERN.test(secret)) {
    throw configError(
      `Cannot use ${authPath}: it must hold {"secret": "<64 hex characters>"}. ` +
        `Run "hub config rotate-secret --confirm" to write a new secret.`,
    );
  }
  return secret;
}

/**
 * Reads the secret; undefined when the file does not exist. Throws a `configError` if the file is
 * invalid, or is not a regular file of at most MAX_AUTH_FILE_BYTES (it is then not read).
 */
export async function readSecret(authPath: string): Promise<string | undefined> {
  let text: string | undefined;
  try {
    text = await readBoundedTextIfExists(authPath, { maxBytes: MAX_AUTH_FILE_BYTES });
  } catch (error) {
    const unusable = unusableFile(error);
    if (!unusable) throw error;
    const fix = `${moveAwayAdvice(authPath)}, then run "hub config rotate-secret --confirm" to ` +
      "write a new secret";
    throw configError(`${unusableFileMessage(authPath, unusable, fix)}.`);
  }
  return text === undefined ? undefined : parseSecret(authPath, text);
}

/** Writes `secret` to the auth file atomically with mode 0600, creating its folder. */
export async function writeSecret(authPath: string, secret: string): Promise<void> {
  await Deno.mkdir(dirname(authPath), { recursive: true, mode: 0o700 });
  await writeFileAtomic(authPath, JSON.stringify({ secret }, null, 2) + "\n", { mode: 0o600 });
}

/** Returns the existing secret, or generates and stores one. `created` tells which happened. */
export async function ensureSecret(
  authPath: string,
): Promise<{ secret: string; created: boolean }> {
  const existing = await readSecret(authPath);
  if (existing) return { secret: existing, created: false };
  const secret = generateSecret();
  await writeSecret(authPath, secret);
  return { secret, created: true };
}

/** A short, safe-to-print form of the secret: its first 8 characters and a marker. */
export function redactSecret(secret: string | undefined): string {
  return secret ? `${secret.slice(0, 8)}…(redacted)` : "(none)";
}
