/**
 * Posts one batch of events: `POST <endpoint>` with `{"events": [...]}`, each attempt bounded by a
 * timeout, retried a few times with a growing pause, then given up. A 4xx answer (other than 408
 * and 429) is final: sending the same batch again would get the same answer. A redirect is never
 * followed (the events go to the endpoint and nowhere else) and is final too. `signal` stops
 * everything at once (the hub is stopping): the request in flight and any pause.
 */
import { errorText } from "../../protocol/clip.ts";

export interface SendOptions {
  endpoint: string;
  fetch?: typeof fetch;
  /** Time limit of one attempt. */
  timeoutMs?: number;
  /** Pauses before the 2nd, 3rd… attempt; their count + 1 is the number of attempts. */
  backoffMs?: readonly number[];
  /** Waits `ms` or until `signal` aborts; injectable so tests do not wait. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Told why an attempt failed (for a debug log line). */
  onFailure?: (message: string) => void;
}

export type SendOutcome = "sent" | "rejected" | "gave_up" | "stopped";

export const SEND_TIMEOUT_MS = 5_000;
export const BACKOFF_MS = [1_000, 5_000] as const;

export async function sendBatch(events: unknown[], options: SendOptions): Promise<SendOutcome> {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  const stop = options.signal ?? new AbortController().signal;
  const pauses = options.backoffMs ?? BACKOFF_MS;
  const body = JSON.stringify({ events });
  for (let attempt = 0; attempt <= pauses.length; attempt++) {
    if (attempt > 0) await sleep(pauses[attempt - 1], stop);
    if (stop.aborted) return "stopped";
    try {
      const response = await doFetch(options.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        signal: AbortSignal.any([stop, AbortSignal.timeout(options.timeoutMs ?? SEND_TIMEOUT_MS)]),
        redirect: "error",
      });
      await response.body?.cancel().catch(() => {});
      if (response.ok) return "sent";
      options.onFailure?.(`the endpoint answered HTTP ${response.status}`);
      if (isFinal(response.status)) return "rejected";
    } catch (error) {
      if (stop.aborted) return "stopped";
      options.onFailure?.(errorText(error));
      if (isRedirectRefusal(error)) return "rejected";
    }
  }
  return "gave_up";
}

/**
 * fetch's refusal of a 3xx under `redirect: "error"` (a TypeError naming the redirect). Were the
 * wording to change, the batch would only be retried at the same endpoint, never elsewhere.
 */
function isRedirectRefusal(error: unknown): boolean {
  return error instanceof TypeError && /redirect/i.test(error.message);
}

function isFinal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** setTimeout as a promise that ends early (resolving) when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
