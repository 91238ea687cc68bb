/**
 * The most of the hub's own files read, each written once: every reader of config.json (the store,
 * the hub's live copy, doctor) and of auth.json (the CLI, the hub's live copy, doctor) uses these.
 * A larger file is refused without being read (core/files/bounded_read.ts).
 */

/** config.json; a real one is a few kilobytes. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** auth.json; the real file is under 100 bytes. */
export const MAX_AUTH_FILE_BYTES = 64 * 1024;
