/**
 * The worker's side of the private page channel (protocol/adapter.ts): calls go to an adapter's
 * door as `executeScript` arguments and their answers, progress and logs come back as its
 * results, which no page script can observe or write. Each door has at most one "wait" exchange
 * running besides the calls, so progress and logs of a long call, and events between calls,
 * reach the hub while they happen. Items are handled in the order the adapter queued them, so a
 * call's progress and logs reach the hub before its answer. An answer of the wrong shape becomes
 * an ADAPTER_ERROR instead of breaking the call. A call its caller gave up on (the tab navigated,
 * the time cap) is forgotten at once, whether or not the page ever answers it.
 */
import type {
  AdapterCall,
  AdapterResult,
  DoorCall,
  DoorItem,
  PageEvent,
} from "../../../protocol/adapter.ts";
import { hubError, isErrorPayload } from "../../../protocol/errors.ts";
import { doorExchange, doorNextSeq, type Missing } from "../shared/page_functions.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";
import { CallFailure } from "./tab_calls.ts";

/** The answer of a page that does not hold the adapter build asked for. */
export type MaybeMissing = AdapterResult | Missing;

/** How long one "wait" exchange waits in the page for an event before it is asked again. */
export const WAIT_MS = 20_000;
/**
 * Call exchanges one door has running at once; calls that come meanwhile go together in the next
 * one, when one returns or after `BATCH_MS`, whichever is first (so a slow call delays others by
 * that much at most). Under load this sends many calls per `executeScript`.
 */
export const PARALLEL_EXCHANGES = 2;
export const BATCH_MS = 4;

export interface PageLinks {
  /**
   * Runs a call in the tab's adapter; `missing` when the tab has not got this build's door. When
   * `signal` aborts, the call is dropped and the promise rejects with its reason.
   */
  call(
    tabId: number,
    plugin: string,
    hash: string,
    request: AdapterCall,
    signal?: AbortSignal,
  ): Promise<MaybeMissing>;
  /** Collects the door's events from now on (the injector found or made it). */
  watch(tabId: number, plugin: string, door: DoorRecord): void;
  /** Calls sent and not answered yet, over all doors (for tests). */
  waitingCalls(): number;
}

interface Pending {
  resolve(result: MaybeMissing): void;
  reject(error: Error): void;
  dispatchId: string;
}

interface Link {
  tabId: number;
  plugin: string;
  door: DoorRecord;
  pending: Map<number, Pending>;
  /** Settles once the link knows where the door counts from; exchanges wait for it. */
  synced: Promise<void>;
  /** The next item to hand on, and items that came before an earlier one. */
  nextSeq: number;
  held: Map<number, DoorItem>;
  waiting: boolean;
  dead: boolean;
  /** Calls not yet sent, call exchanges running, and the timer that sends the queue anyway. */
  queue: DoorCall[];
  running: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** The answer as the adapter contract allows it, or an ADAPTER_ERROR saying what came instead. */
export function checkedAnswer(result: unknown): MaybeMissing {
  const r = result as Record<string, unknown> | null;
  if (typeof r === "object" && r !== null) {
    if (r.missing === true) return { missing: true };
    if (r.ok === true && "value" in r) return { ok: true, value: r.value };
    if (r.ok === false && isErrorPayload(r.error)) return { ok: false, error: r.error };
  }
  const message = `The page answered with something that is not a tool result: ${
    JSON.stringify(result)?.slice(0, 200)
  }`;
  return { ok: false, error: hubError("ADAPTER_ERROR", message) };
}

/** Chromium's words for a target document that is no longer there (nothing ran). */
const NO_DOCUMENT = /No document with id|Frame with ID \d+ was removed|No frame with id/i;

async function lostAnswer(tabId: number): Promise<CallFailure> {
  const exists = await chrome.tabs.get(tabId).then(() => true, () => false);
  return new CallFailure(
    exists
      ? hubError(
        "TAB_NAVIGATED",
        `Tab ${tabId}'s page went away while the call ran (it navigated or reloaded), so ` +
          "its answer was lost. Try again once the page has loaded.",
      )
      : hubError("TAB_CLOSED", `Tab ${tabId} was closed while the call ran.`),
  );
}

/** `onEvent` gets each event with the tab and the plugin whose door it came out of. */
export function createPageLinks(
  doors: AdapterDoors,
  onEvent: (tabId: number, plugin: string, event: PageEvent) => void,
): PageLinks {
  /** By door key. */
  const links = new Map<string, Link>();
  let nextId = 1;

  function linkOf(tabId: number, plugin: string, door: DoorRecord): Link {
    let link = links.get(door.key);
    if (!link) {
      link = { tabId, plugin, door, pending: new Map(), nextSeq: 1, held: new Map() } as Link;
      link.waiting = link.dead = false;
      link.queue = [];
      link.running = 0;
      link.synced = sync(link);
      links.set(door.key, link);
    }
    return link;
  }

  /**
   * A door numbers its items for as long as it lives, and a service worker that stopped took the
   * ones it had taken with it: a new link starts where the door is now, before any exchange. A
   * door that does not answer leaves it at 1; the first exchange then finds out what is wrong.
   */
  async function sync(link: Link) {
    const frames = await chrome.scripting.executeScript({
      target: { tabId: link.tabId },
      world: "MAIN",
      func: doorNextSeq,
      args: [link.door.key, link.door.secret],
    }).catch(() => undefined);
    const seq = (frames?.[0]?.result as { seq?: unknown } | undefined)?.seq;
    if (typeof seq === "number" && Number.isInteger(seq) && seq >= 1) link.nextSeq = seq;
  }

  function handOn(link: Link, item: DoorItem) {
    if (item.kind === "result") {
      const waiting = link.pending.get(item.id);
      link.pending.delete(item.id);
      waiting?.resolve(checkedAnswer(item.result));
      return;
    }
    if (item.kind === "progress") {
      // Progress counts only for a call this door is running.
      const mine = [...link.pending.values()].some((p) => p.dispatchId === item.dispatchId);
      if (!mine) return;
    }
    const { seq: _, ...event } = item;
    onEvent(link.tabId, link.plugin, event as PageEvent);
  }

  function deliver(link: Link, items: DoorItem[]) {
    for (const item of items) {
      if (Number.isInteger(item?.seq) && item.seq >= link.nextSeq) link.held.set(item.seq, item);
    }
    for (let item; (item = link.held.get(link.nextSeq));) {
      link.held.delete(link.nextSeq++);
      handOn(link, item);
    }
  }

  /**
   * The door is gone. The calls of the exchange that found out either never ran (`ran` false:
   * they may run again elsewhere) or lost their answer; other calls hear it from their own.
   */
  async function close(link: Link, calls: DoorCall[], ran: boolean) {
    link.dead = true;
    if (links.get(link.door.key) === link) links.delete(link.door.key);
    const error = ran && calls.length > 0 ? await lostAnswer(link.tabId) : undefined;
    for (const call of calls) {
      const waiting = link.pending.get(call.id);
      link.pending.delete(call.id);
      if (error) waiting?.reject(error);
      else waiting?.resolve({ missing: true });
    }
  }

  async function exchange(link: Link, calls: DoorCall[], waitMs: number) {
    let answer: { items: DoorItem[] } | Missing | undefined;
    await link.synced;
    try {
      const [frame] = await chrome.scripting.executeScript({
        // No documentIds: the door's random key exists in no other document, and Chromium finds
        // the tab's main frame faster than a document by id.
        target: { tabId: link.tabId },
        world: "MAIN",
        func: doorExchange,
        args: [link.door.key, link.door.secret, calls, waitMs],
      });
      answer = frame?.result as typeof answer;
    } catch (error) {
      const nothingRan = NO_DOCUMENT.test((error as Error)?.message ?? "");
      return void await close(link, calls, !nothingRan);
    }
    if (!answer || "missing" in answer) return void await close(link, calls, false);
    deliver(link, Array.isArray(answer.items) ? answer.items : []);
  }

  /** Sends the queued calls in one exchange now. */
  function flush(link: Link) {
    clearTimeout(link.timer);
    link.timer = undefined;
    if (link.queue.length === 0) return;
    const calls = link.queue;
    link.queue = [];
    link.running++;
    void exchange(link, calls, 0).finally(() => {
      link.running--;
      flush(link);
    });
  }

  function send(link: Link, call: DoorCall) {
    link.queue.push(call);
    if (link.running < PARALLEL_EXCHANGES) flush(link);
    else link.timer ??= setTimeout(() => flush(link), BATCH_MS);
  }

  async function waitLoop(link: Link) {
    link.waiting = true;
    try {
      while (!link.dead) await exchange(link, [], WAIT_MS);
    } finally {
      link.waiting = false;
    }
  }

  /** The answer to call `id`, unless `signal` aborts first: then the link forgets the call. */
  function answerOf(link: Link, call: DoorCall, signal?: AbortSignal): Promise<MaybeMissing> {
    return new Promise<MaybeMissing>((resolve, reject) => {
      const giveUp = () => {
        link.pending.delete(call.id);
        link.queue = link.queue.filter((queued) => queued.id !== call.id);
        reject(signal!.reason);
      };
      const settled = () => signal?.removeEventListener("abort", giveUp);
      link.pending.set(call.id, {
        resolve: (result) => (settled(), resolve(result)),
        reject: (error) => (settled(), reject(error)),
        dispatchId: call.request.dispatchId,
      });
      signal?.addEventListener("abort", giveUp, { once: true });
      send(link, call);
    });
  }

  function watch(tabId: number, plugin: string, door: DoorRecord) {
    const link = linkOf(tabId, plugin, door);
    if (!link.waiting && !link.dead) void waitLoop(link);
  }

  return {
    watch,
    async call(tabId, plugin, hash, request, signal) {
      const door = await doors.get(tabId, plugin);
      signal?.throwIfAborted();
      if (!door || door.hash !== hash) return { missing: true };
      const link = linkOf(tabId, plugin, door);
      if (!link.waiting) void waitLoop(link);
      return await answerOf(link, { id: nextId++, request }, signal);
    },
    waitingCalls: () => [...links.values()].reduce((sum, link) => sum + link.pending.size, 0),
  };
}
