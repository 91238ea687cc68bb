/**
 * One door as the worker holds it, and the numbering of what the door hands out. A door numbers
 * its items (events and answers) in the order the adapter queued them; the worker hands them on in
 * that order, holding items that came ahead of an earlier one, so a call's progress and logs reach
 * the hub before its answer. It holds a bounded amount: an answer with more items than an honest
 * door hands out at once, too many held items, or an answer numbered before items already handed
 * out, is what no honest door does (door_exchanges.ts then breaks the door).
 */
import type { AdapterResult, DoorCall, DoorItem, PageEvent } from "../../../protocol/adapter.ts";
import { MAX_QUEUED_EVENTS } from "../../../protocol/adapter.ts";
import { readCallResult } from "../../../protocol/call_contract.ts";
import { errorPayload } from "../../../protocol/errors.ts";
import type { Missing } from "../shared/page_functions.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";

/** The answer of a page that does not hold the adapter build asked for. */
export type MaybeMissing = AdapterResult | Missing;

/**
 * Call exchanges one door has running at once; calls that come meanwhile go together in the next
 * one, when one returns or after `BATCH_MS`, whichever is first (so a slow call delays others by
 * that much at most). Under load this sends many calls per `executeScript`.
 */
export const PARALLEL_EXCHANGES = 2;

/**
 * How many answers' worth of items the worker holds back for a door at most while it waits for an
 * earlier one: items numbered further ahead are dropped, and more held items break the door.
 */
const HELD_ANSWERS = PARALLEL_EXCHANGES + 2;

/** A call sent to a door, waiting for its answer. */
export interface Pending {
  resolve(result: MaybeMissing): void;
  reject(error: Error): void;
  dispatchId: string;
}

/** One door the worker took up. */
export interface DoorState {
  tabId: number;
  plugin: string;
  door: DoorRecord;
  pending: Map<number, Pending>;
  /** Settles once the worker knows where the door counts from; exchanges wait for it. */
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

/** What every door's functions share: where doors are kept, where events go, the doors taken up. */
export interface DoorShared {
  doors: AdapterDoors;
  /** Gets each event with the tab and the plugin whose door it came out of. */
  onEvent: (tabId: number, plugin: string, event: PageEvent) => void;
  /** By door key. */
  states: Map<string, DoorState>;
}

/**
 * The answer as the adapter contract allows it, or an ADAPTER_ERROR saying what came instead. A
 * `tabId` the page put in is dropped unread: the page never owns the tab (the worker adds it).
 */
export function checkedAnswer(result: unknown): MaybeMissing {
  if ((result as Missing | null)?.missing === true) return { missing: true };
  const read = readCallResult(withoutTabId(result));
  if ("result" in read) return read.result;
  const message = `The page answered with something that is not a tool result: ${read.problem}`;
  return { ok: false, error: errorPayload("ADAPTER_ERROR", message) };
}

/** The page's answer without a `tabId` key. */
function withoutTabId(result: unknown): unknown {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
  const { tabId: _, ...rest } = result as Record<string, unknown>;
  return rest;
}

/** Hands one item on, in its turn: an answer to its call, an event to `onEvent`. */
function handOn(shared: DoorShared, state: DoorState, item: DoorItem) {
  if (item.kind === "result") {
    const waiting = state.pending.get(item.id);
    if (!waiting && state.late > 0) state.late--;
    state.pending.delete(item.id);
    waiting?.resolve(checkedAnswer(item.result));
    return;
  }
  if (item.kind === "progress") {
    // Progress counts only for a call this door is running.
    const mine = [...state.pending.values()].some((p) => p.dispatchId === item.dispatchId);
    if (!mine) return;
  }
  const { seq: _, ...event } = item;
  shared.onEvent(state.tabId, state.plugin, event as PageEvent);
}

/** Items one answer may hold: every event the adapter keeps, and the answers still due. */
const capOf = (state: DoorState) => MAX_QUEUED_EVENTS + state.pending.size + state.late;

/** Takes an answer's items in; says what is wrong when no honest door hands out these. */
export function deliver(
  shared: DoorShared,
  state: DoorState,
  items: DoorItem[],
): string | undefined {
  const cap = capOf(state);
  if (items.length > cap) return `handed out ${items.length} items at once (at most ${cap})`;
  const before = state.nextSeq;
  const ahead = state.nextSeq + HELD_ANSWERS * cap;
  for (const item of items) {
    const seq = item?.seq;
    if (!Number.isInteger(seq) || seq >= ahead) continue;
    if (seq >= state.nextSeq) state.held.set(seq, item);
    else if (item.kind === "result" && state.pending.has(item.id)) {
      return "numbered an answer before the items it had already handed out";
    }
  }
  if (state.held.size > HELD_ANSWERS * cap) return `left ${state.held.size} items waiting`;
  for (let item; (item = state.held.get(state.nextSeq));) {
    state.held.delete(state.nextSeq++);
    handOn(shared, state, item);
  }
  if (state.nextSeq !== before || state.held.size === 0) state.gapUntil = undefined;
  if (state.held.size > 0) state.gapUntil ??= state.started;
}

/** A gap in the numbering that no exchange still out can fill. */
export function gapStuck(state: DoorState): boolean {
  const until = state.gapUntil;
  return until !== undefined && ![...state.inFlight].some((n) => n <= until);
}
