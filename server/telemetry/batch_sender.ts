/**
 * The sending half of telemetry: events wait in a bounded queue; the first one starts a short
 * timer, and when it fires everything waiting goes out in batches, one request at a time, each
 * retried by `sendBatch`. Before each batch it asks `active()` again: when telemetry was turned
 * off meanwhile, what waited is dropped unsent. `stop` abandons the request under way.
 */
import type { TelemetryEvent } from "./events.ts";
import { createEventQueue } from "./event_queue.ts";
import { sendBatch, type SendOptions } from "./sender.ts";

export interface BatchSenderOptions {
  endpoint: string;
  /** Whether sending is allowed now (asked before every batch). */
  active: () => boolean;
  /** Wait after the first queued event before a send, gathering a batch. */
  batchDelayMs: number;
  maxQueued: number;
  fetch?: typeof fetch;
  send?: Pick<SendOptions, "timeoutMs" | "backoffMs" | "sleep">;
  /** Told about failed attempts and dropped batches (a bounded debug log). */
  onProblem: (message: string) => void;
}

export interface BatchSender {
  push(event: TelemetryEvent): void;
  /** Sends everything waiting; resolves when the queue is empty (or sending stopped). */
  flush(): Promise<void>;
  /** Abandons the request under way and any later send. */
  stop(): void;
}

const MAX_BATCH = 50;

export function createBatchSender(options: BatchSenderOptions): BatchSender {
  const queue = createEventQueue<TelemetryEvent>(options.maxQueued);
  const stopper = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending: Promise<void> | undefined;

  async function sendAll() {
    while (queue.size > 0 && !stopper.signal.aborted) {
      if (!options.active()) {
        queue.clear(); // turned off meanwhile: what waited is never sent
        return;
      }
      const batch = queue.take(MAX_BATCH);
      const outcome = await sendBatch(batch, {
        ...options.send,
        endpoint: options.endpoint,
        fetch: options.fetch,
        signal: stopper.signal,
        onFailure: (m) => options.onProblem(`send failed: ${m}`),
      });
      if (outcome === "rejected" || outcome === "gave_up") {
        const why = outcome === "rejected" ? "a refusal" : "retries";
        options.onProblem(`dropped ${batch.length} event(s) after ${why}`);
      }
    }
  }

  function flush(): Promise<void> {
    sending ??= sendAll().finally(() => (sending = undefined));
    return sending;
  }

  return {
    push(event) {
      queue.push(event);
      if (timer !== undefined || stopper.signal.aborted) return;
      timer = setTimeout(() => {
        timer = undefined;
        void flush();
      }, options.batchDelayMs);
      Deno.unrefTimer(timer);
    },
    flush() {
      clearTimeout(timer);
      timer = undefined;
      return flush();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      stopper.abort();
    },
  };
}
