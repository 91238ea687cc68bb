/**
 * The worker's side of the private page channel (protocol/adapter.ts): calls go to an adapter's
 * door as `executeScript` arguments and their answers, progress and logs come back as its
 * results, which no page script can observe or write. Each door has at most one "wait" exchange
 * running besides the calls, so progress and logs of a long call, and events between calls,
 * reach the hub while they happen. Items are handled in the order the adapter queued them, so a
 * call's progress and logs reach the hub before its answer. An answer of the wrong shape becomes
 * an ADAPTER_ERROR instead of breaking the call. A call its caller gave up on (the tab navigated,
 * the time cap) is forgotten at once, whether or not the page ever answers it.
 *
 * Every exchange targets the very document the door was put in. A door that closes while an
 * exchange carries calls (the plugin was turned off, removed or rebuilt) fails those calls: they
 * may have run, so they are never sent again. The worker keeps a bounded amount from a door: an
 * answer holding more items than an honest door can hand out at once, an answer to a call
 * numbered before the link started, or a gap in the numbering that no exchange still running
 * can fill breaks the link (its calls fail and the door is closed).
 */
import {
  type AdapterCall,
  type AdapterResult,
  type DoorCall,
  type DoorItem,
  MAX_QUEUED_EVENTS,
  type PageEvent,
} from "../../../protocol/adapter.ts";
import { readCallResult } from "../../../protocol/call_contract.ts";
import { errorPayload, HubError } from "../../../protocol/errors.ts";
import { doorClose, doorExchange, doorNextSeq, type Missing } from "../shared/page_functions.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";

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
/**
 * How many answers' worth of items the link holds back at most while it waits for an earlier
 * one: items numbered further ahead are dropped, and more held items break the link.
 */
export const HELD_ANSWERS = PARALLEL_EXCHANGES + 2;

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
  /** It answered what no honest door does: everything it says from now on is ignored. */
  broken: boolean;
  /** Calls not yet sent, call exchanges running, and the timer that sends the queue anyway. */
  queue: DoorCall[];
  running: number;
  timer?: ReturnType<typeof setTimeout>;
  /** Calls sent and then given up on, whose answers may still come. */
  late: number;
  /** Exchanges started (a count) and the ones not back yet. */
  started: number;
  inFlight: Set<number>;
  /** Held items wait for an exchange numbered up to this; none left: the gap never fills. */
  gapUntil?: number;
}

/** How the door of an exchange was found gone: nothing ran, the page went, or it was closed. */
type Gone = "unsent" | "navigated" | "closed";

/** The answer as the adapter contract allows it, or an ADAPTER_ERROR saying what came instead. */
export function checkedAnswer(result: unknown): MaybeMissing {
  if ((result as Missing | null)?.missing === true) return { missing: true };
  const read = readCallResult(result);
  if ("result" in read) return read.result;
  const message = `The page answered with something that is not a tool result: ${read.problem}`;
  return { ok: false, error: errorPayload("ADAPTER_ERROR", message) };
}

/** Chromium's words for a target document that is no longer there (nothing ran). */
const NO_DOCUMENT = /No document with id|Frame with ID \d+ was removed|No frame with id/i;

async function lostAnswer(tabId: number): Promise<HubError> {
  const exists = await chrome.tabs.get(tabId).then(() => true, () => false);
  return new HubError(
    exists
      ? errorPayload(
        "TAB_NAVIGATED",
        `Tab ${tabId}'s page went away while the call ran (it navigated or reloaded), so ` +
          "its answer was lost. Try again once the page has loaded.",
      )
      : errorPayload("TAB_CLOSED", `Tab ${tabId} was closed while the call ran.`),
  );
}

/** Every door call goes to the document the door is in, never to a later one in the tab. */
const targetOf = (link: Link) => ({ tabId: link.tabId, documentIds: [link.door.documentId] });

/** The calls of an exchange whose door closed under them. */
function closedMidCall(link: Link): HubError {
  return new HubError(errorPayload(
    "ADAPTER_ERROR",
    `The ${link.plugin.slice(0, 100)} adapter in tab ${link.tabId} was closed while the call ran ` +
      "(the plugin was turned off, removed or replaced by a new build). The call has probably " +
      "run and is not run again: check its effect, then call again if the plugin is on.",
  ));
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
      link.waiting = link.dead = link.broken = false;
      link.queue = [];
      link.running = link.late = link.started = 0;
      link.inFlight = new Set();
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
      target: targetOf(link),
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
      if (!waiting && link.late > 0) link.late--;
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

  /** Items one answer may hold: every event the adapter keeps, and the answers still due. */
  const capOf = (link: Link) => MAX_QUEUED_EVENTS + link.pending.size + link.late;

  /** Takes an answer's items in; says what is wrong when no honest door hands out these. */
  function deliver(link: Link, items: DoorItem[]): string | undefined {
    const cap = capOf(link);
    if (items.length > cap) return `handed out ${items.length} items at once (at most ${cap})`;
    const before = link.nextSeq;
    const ahead = link.nextSeq + HELD_ANSWERS * cap;
    for (const item of items) {
      const seq = item?.seq;
      if (!Number.isInteger(seq) || seq >= ahead) continue;
      if (seq >= link.nextSeq) link.held.set(seq, item);
      else if (item.kind === "result" && link.pending.has(item.id)) {
        return "numbered an answer before the items it had already handed out";
      }
    }
    if (link.held.size > HELD_ANSWERS * cap) return `left ${link.held.size} items waiting`;
    for (let item; (item = link.held.get(link.nextSeq));) {
      link.held.delete(link.nextSeq++);
      handOn(link, item);
    }
    if (link.nextSeq !== before || link.held.size === 0) link.gapUntil = undefined;
    if (link.held.size > 0) link.gapUntil ??= link.started;
  }

  /** A gap in the numbering that no exchange still out can fill. */
  function gapStuck(link: Link): boolean {
    const until = link.gapUntil;
    return until !== undefined && ![...link.inFlight].some((n) => n <= until);
  }

  function forget(link: Link) {
    link.dead = true;
    link.held.clear();
    if (links.get(link.door.key) === link) links.delete(link.door.key);
  }

  /**
   * The door is gone. The calls of the exchange that found out either never ran ("unsent": they
   * may run elsewhere), lost their answer with the page ("navigated"), or were in the door when
   * it closed ("closed": they may have run, so they fail and are never sent again). Other calls
   * hear it from their own exchanges.
   */
  async function close(link: Link, calls: DoorCall[], gone: Gone) {
    forget(link);
    if (calls.length === 0) return;
    const error = gone === "navigated"
      ? await lostAnswer(link.tabId)
      : gone === "closed"
      ? closedMidCall(link)
      : undefined;
    for (const call of calls) {
      const waiting = link.pending.get(call.id);
      link.pending.delete(call.id);
      if (error) waiting?.reject(error);
      else waiting?.resolve({ missing: true });
    }
  }

  /**
   * The door answered what no honest adapter does (a page script tampered with built-ins the
   * adapter uses): every call of the link fails, and the door is closed and forgotten, so the
   * next call gets a fresh adapter.
   */
  function breakLink(link: Link, why: string) {
    forget(link);
    link.broken = true;
    const error = new HubError(errorPayload(
      "ADAPTER_ERROR",
      `The ${link.plugin.slice(0, 100)} adapter in tab ${link.tabId} ${why}, which it never ` +
        "does on its own (a page script may have tampered with it), so the extension closed " +
        "it. The call may have run and is not run again; check its effect before calling again.",
    ));
    for (const waiting of link.pending.values()) waiting.reject(error);
    link.pending.clear();
    link.queue = [];
    void (async () => {
      const record = await doors.get(link.tabId, link.plugin);
      if (record?.key === link.door.key) doors.delete(link.tabId, link.plugin);
      await chrome.scripting.executeScript({
        target: targetOf(link),
        world: "MAIN",
        func: doorClose,
        args: [link.door.key, link.door.secret],
      });
    })().catch(() => {}); // the document is gone: so is its door
  }

  async function exchange(link: Link, calls: DoorCall[], waitMs: number) {
    const n = ++link.started;
    link.inFlight.add(n);
    try {
      await send(link, calls, waitMs);
    } finally {
      link.inFlight.delete(n);
      if (!link.dead && gapStuck(link)) breakLink(link, "left a gap in the numbering of its items");
    }
  }

  async function send(link: Link, calls: DoorCall[], waitMs: number) {
    let answer: { items: DoorItem[] } | Missing | { closed: true } | undefined;
    await link.synced;
    if (link.dead) return void await close(link, calls, "unsent");
    try {
      const [frame] = await chrome.scripting.executeScript({
        target: targetOf(link),
        world: "MAIN",
        func: doorExchange,
        args: [link.door.key, link.door.secret, calls, waitMs],
      });
      answer = frame?.result as typeof answer;
    } catch (error) {
      const nothingRan = NO_DOCUMENT.test((error as Error)?.message ?? "");
      return void await close(link, calls, nothingRan ? "unsent" : "navigated");
    }
    if (link.broken) return; // its calls have failed already
    if (answer && "missing" in answer) return void await close(link, calls, "unsent");
    if (!answer || !("items" in answer)) return void await close(link, calls, "closed");
    const wrong = deliver(link, Array.isArray(answer.items) ? answer.items : []);
    if (wrong) breakLink(link, wrong);
    // The door closed under another exchange: calls of this one still unanswered never will be.
    else if (link.dead) await close(link, calls, "closed");
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

  function enqueue(link: Link, call: DoorCall) {
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
        const sent = !link.queue.some((queued) => queued.id === call.id);
        if (link.pending.delete(call.id) && sent && !link.dead) link.late++;
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
      enqueue(link, call);
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
