/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * The worker thread behind safe_watch.ts: makes and closes `Deno.watchFs` watchers (non-recursive)
 * for the hub's thread and posts back their events. A `watch` request carries a shared answer
 * (`ANSWER_BYTES`): an Int32 state at 0 (1: watching, 2: failed), the error's byte length at 4 and
 * its UTF-8 text from 8, set once `Deno.watchFs` returned; the hub's thread waits for it with a
 * time bound.
 */

export type ToWorker =
  | { kind: "watch"; id: number; paths: string[]; flag: SharedArrayBuffer }
  | { kind: "close"; id: number }
  | { kind: "ping"; id: number };

export type FromWorker =
  | { kind: "event"; id: number; event: Deno.FsEvent }
  | { kind: "error"; id: number; message: string }
  | { kind: "end"; id: number };

export const WATCHING = 1;
export const FAILED = 2;
export const ANSWER_BYTES = 1024;

const watchers = new Map<number, { watcher: Deno.FsWatcher; done: Promise<void> }>();
const post = (message: FromWorker) => self.postMessage(message);

async function forward(id: number, watcher: Deno.FsWatcher): Promise<void> {
  try {
    for await (const { kind, paths, flag } of watcher) {
      post({
        kind: "event",
        id,
        event: flag === undefined ? { kind, paths } : { kind, paths, flag },
      });
    }
    post({ kind: "end", id });
  } catch (error) {
    post({ kind: "error", id, message: (error as Error).message });
  }
}

function watch(id: number, paths: string[], answer: SharedArrayBuffer): void {
  const state = new Int32Array(answer, 0, 2);
  try {
    const watcher = Deno.watchFs(paths, { recursive: false });
    watchers.set(id, { watcher, done: forward(id, watcher) });
    Atomics.store(state, 0, WATCHING);
  } catch (error) {
    const text = new TextEncoder().encode((error as Error).message).subarray(0, ANSWER_BYTES - 8);
    new Uint8Array(answer, 8).set(text);
    state[1] = text.length;
    Atomics.store(state, 0, FAILED);
  }
  Atomics.notify(state, 0);
}

/**
 * Closes a watcher and resolves once its event loop ended. A closed watcher whose next event was
 * still awaited lets go of its paths only then; a new watch of the same path made before that
 * would lose them, so every request waits for the closes before it.
 */
async function close(id: number): Promise<void> {
  const entry = watchers.get(id);
  watchers.delete(id);
  if (!entry) return;
  try {
    entry.watcher.close();
  } catch {
    // already closed
  }
  await entry.done;
  await new Promise((resolve) => setTimeout(resolve, 0));
}

let work: Promise<void> = Promise.resolve();

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const message = e.data;
  work = work.then(() =>
    message.kind === "watch"
      ? watch(message.id, message.paths, message.flag)
      : message.kind === "ping"
      ? post({ kind: "end", id: message.id })
      : close(message.id)
  );
};
