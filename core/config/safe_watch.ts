/**
 * Native file watching (`Deno.watchFs`, non-recursive) that cannot hang the hub. The runtime's
 * watcher thread opens the paths an event names, and the watched ones, to compare them; a named
 * pipe (FIFO) there, with no writer, blocks that thread for good, and from then on every
 * `Deno.watchFs` and every `close()` in the process waits for it. Called from the hub's thread,
 * that hung the hub for good (config.json replaced by a FIFO, in dev mode).
 *
 * So watchers are made and closed in one worker thread (watch_worker.ts). `safeWatchFs` keeps the
 * synchronous contract of `Deno.watchFs` (the watch is active when it returns; an error is thrown)
 * by waiting for the worker's answer on a shared flag, at most WATCH_START_MS (longer for the very
 * first watch, while the worker starts). A worker that does not answer in time is taken as blocked:
 * the call throws, and callers fall back to their time-bounded polling (live_file.ts, dev mode's
 * stamp poll). `close()` only sends a message. The worker stays for the process's lifetime.
 */
import { ANSWER_BYTES, FAILED, type FromWorker, type ToWorker } from "./watch_worker.ts";

/** What `Deno.watchFs` returns, as far as the hub uses it. */
export interface FsWatcher extends AsyncIterable<Deno.FsEvent> {
  close(): void;
}

/** The longest wait for a watch to start once the worker runs. */
export const WATCH_START_MS = 1_000;
/** The longest wait for the first watch, which also starts the worker. */
export const FIRST_WATCH_START_MS = 5_000;

let worker: Worker | undefined;
let started = false;
const sinks = new Map<number, (message: FromWorker) => void>();
let nextId = 1;

function theWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("./watch_worker.ts", import.meta.url), { type: "module" });
  worker.onmessage = (e: MessageEvent<FromWorker>) => sinks.get(e.data.id)?.(e.data);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    for (const [id, sink] of sinks) sink({ kind: "error", id, message: e.message });
  };
  return worker;
}

const send = (message: ToWorker) => theWorker().postMessage(message);

let warming: Promise<void> | undefined;

/**
 * Starts the watch worker without waiting for it, and resolves once it answers: a caller that
 * awaits this first (the hub's own files) makes its first watch without the worker's start-up
 * (about 15 ms) on the hub's thread.
 */
export function watchWorkerReady(): Promise<void> {
  warming ??= new Promise<void>((resolve) => {
    const id = nextId++;
    sinks.set(id, () => {
      sinks.delete(id);
      started = true;
      resolve();
    });
    send({ kind: "ping", id });
  });
  return warming;
}

/** `Deno.watchFs(paths, { recursive: false })`, made in the watch worker (see above). */
export function safeWatchFs(paths: string[]): FsWatcher {
  const id = nextId++;
  const queue: Deno.FsEvent[] = [];
  let failure: Error | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  sinks.set(id, (message) => {
    if (message.kind === "event") queue.push(message.event);
    else if (message.kind === "error") failure = new Error(message.message);
    else ended = true;
    wake?.();
  });
  const close = () => {
    ended = true;
    wake?.();
    if (sinks.delete(id)) send({ kind: "close", id });
  };

  const flag = new SharedArrayBuffer(ANSWER_BYTES);
  const timeoutMs = started ? WATCH_START_MS : FIRST_WATCH_START_MS;
  send({ kind: "watch", id, paths, flag });
  const state = new Int32Array(flag, 0, 2);
  if (Atomics.wait(state, 0, 0, timeoutMs) === "timed-out") {
    close(); // the worker closes it if it ever gets there
    throw new Error(
      `native watching did not start within ${timeoutMs} ms (the runtime's file watcher may be ` +
        "blocked, for example opening a named pipe (FIFO) in a watched folder)",
    );
  }
  started = true;
  if (Atomics.load(state, 0) === FAILED) {
    close();
    throw new Error(new TextDecoder().decode(new Uint8Array(flag, 8, state[1])));
  }
  return {
    close,
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (queue.length > 0) {
          yield queue.shift()!;
        } else if (failure) {
          close();
          throw failure;
        } else if (ended) {
          return;
        } else {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      }
    },
  };
}
