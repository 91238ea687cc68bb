/**
 * Native file watching (`Deno.watchFs`, non-recursive) that cannot hang the hub. The runtime's
 * watcher thread opens the paths an event names, and the watched ones, to compare them; a named
 * pipe (FIFO) there, with no writer, blocks that thread for good, and from then on every
 * `Deno.watchFs` and every `close()` in the process waits for it. Called from the hub's thread,
 * that hung the hub for good (config.json replaced by a FIFO, in dev mode).
 *
 * So watchers are made and closed in a worker thread (watch_worker.ts), one per `WatchWorker`,
 * which its owner creates and terminates (the hub's files: `server/files/hub_files.ts`, whose worker dev
 * mode uses too). `watchFs` keeps the synchronous contract of `Deno.watchFs` (the watch is active
 * when it returns; an error is thrown) by waiting for the worker's answer on a shared flag, at most
 * WATCH_START_MS (longer for the very first watch, while the worker starts). A worker that does not
 * answer in time is taken as blocked: the call throws, and callers fall back to their time-bounded
 * polling (live_file.ts, dev mode's stamp poll). While it is known blocked, every later `watchFs`
 * throws at once, without waiting or queueing behind the stuck request; one ping, answered once the
 * worker is free again, ends that. `close()` only sends a message.
 */
import { ANSWER_BYTES, FAILED, type FromWorker, type ToWorker } from "./watch_worker.ts";

/** What `Deno.watchFs` returns, as far as the hub uses it. */
export interface FsWatcher extends AsyncIterable<Deno.FsEvent> {
  close(): void;
}

/** `Deno.watchFs(paths, { recursive: false })`, or a stand-in for it. */
export type WatchFs = (paths: string[]) => FsWatcher;

/** The longest wait for a watch to start once the worker runs. */
export const WATCH_START_MS = 1_000;
/** The longest wait for the first watch, which also starts the worker. */
export const FIRST_WATCH_START_MS = 5_000;

export interface WatchWorker {
  /**
   * Resolves once the worker answers: at its start (a caller that awaits this first makes its
   * first watch without the worker's start-up, about 15 ms, on its thread), or, while it is
   * blocked, once it is free again.
   */
  ready(): Promise<void>;
  /** `Deno.watchFs(paths, { recursive: false })`, made in the worker (see above). */
  watchFs: WatchFs;
  /** Whether a watch timed out and the worker has not answered since. */
  blocked(): boolean;
  /** Ends the worker and every watch made in it (their iterations end). */
  terminate(): void;
}

type Sink = (message: FromWorker) => void;

/** One watch's events, from its sink to its iterator. */
function eventStream(close: () => void): { sink: Sink; watcher: FsWatcher } {
  const queue: Deno.FsEvent[] = [];
  let failure: Error | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const sink: Sink = (message) => {
    if (message.kind === "event") queue.push(message.event);
    else if (message.kind === "error") failure = new Error(message.message);
    else ended = true;
    wake?.();
  };
  const end = () => {
    ended = true;
    wake?.();
    close();
  };
  const watcher: FsWatcher = {
    close: end,
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (queue.length > 0) {
          yield queue.shift()!;
        } else if (failure) {
          end();
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
  return { sink, watcher };
}

/** Starts a watch worker; its creator terminates it. */
export function createWatchWorker(): WatchWorker {
  const worker = new Worker(new URL("./watch_worker.ts", import.meta.url), { type: "module" });
  const sinks = new Map<number, Sink>();
  let nextId = 1;
  let started = false;
  let terminated = false;
  let warming: Promise<void> | undefined;
  /** Set while blocked: resolves when the worker answers a ping sent after the timeout. */
  let stuck: Promise<void> | undefined;

  worker.onmessage = (e: MessageEvent<FromWorker>) => sinks.get(e.data.id)?.(e.data);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    for (const [id, sink] of sinks) sink({ kind: "error", id, message: e.message });
  };
  const send = (message: ToWorker) => worker.postMessage(message);

  function ping(): Promise<void> {
    return new Promise<void>((resolve) => {
      const id = nextId++;
      sinks.set(id, () => {
        sinks.delete(id);
        started = true;
        resolve();
      });
      send({ kind: "ping", id });
    });
  }

  function watchFs(paths: string[]): FsWatcher {
    if (terminated) throw new Error("native watching has ended (the hub is closing)");
    if (stuck) {
      throw new Error(
        "native watching is blocked (a watch did not start: the runtime's file watcher may be " +
          "opening a named pipe (FIFO)); it is tried again once the watcher answers",
      );
    }
    const id = nextId++;
    const { sink, watcher } = eventStream(() => {
      if (sinks.delete(id)) send({ kind: "close", id });
    });
    sinks.set(id, sink);
    const flag = new SharedArrayBuffer(ANSWER_BYTES);
    const timeoutMs = started ? WATCH_START_MS : FIRST_WATCH_START_MS;
    send({ kind: "watch", id, paths, flag });
    const state = new Int32Array(flag, 0, 2);
    if (Atomics.wait(state, 0, 0, timeoutMs) === "timed-out") {
      watcher.close(); // the worker closes it if it ever gets there
      stuck = ping().then(() => void (stuck = undefined));
      throw new Error(
        `native watching did not start within ${timeoutMs} ms (the runtime's file watcher may ` +
          "be blocked, for example opening a named pipe (FIFO) in a watched folder)",
      );
    }
    started = true;
    if (Atomics.load(state, 0) === FAILED) {
      watcher.close();
      throw new Error(new TextDecoder().decode(new Uint8Array(flag, 8, state[1])));
    }
    return watcher;
  }

  return {
    ready: () => stuck ?? (warming ??= ping()),
    watchFs,
    blocked: () => stuck !== undefined,
    terminate() {
      if (terminated) return;
      terminated = true;
      worker.terminate();
      const open = [...sinks];
      sinks.clear();
      for (const [id, sink] of open) sink({ kind: "end", id });
    },
  };
}
