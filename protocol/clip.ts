/**
 * Cutting text that came from outside (input, error messages, log lines) to a bounded length. One
 * place for it: the server, the CLI, the extension and the SDK all clip what they echo or store.
 */

/** `text` cut to at most `max` characters, ending in "…" when it was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Longest part of a value repeated in a message by default. */
const MAX_ECHO = 80;

/** `value` cut to `max` characters with a note of its full length, for echoing input in messages. */
export function clipForMessage(value: string, max = MAX_ECHO): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

/** An error's message (or the value as text), cut to `max` characters for a log line. */
export function errorText(error: unknown, max = 200): string {
  return clip(String((error as Error)?.message ?? error), max);
}
