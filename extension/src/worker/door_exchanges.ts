/**
 * The worker's side of the private page channel (protocol/adapter.ts): calls go to an adapter's
 * door as `executeScript` arguments and their answers, progress and logs come back as its
 * results, which no page script can observe or write. Each door has at most one "wait" exchange
 * running besides the calls, so progress and logs of a long call, and events between calls,
 * reach the hub while they happen. Items are handled in the order the adapter queued them
 * (door_state.ts), so a call's progress and logs reach the hub before its answer. An answer of the
 * wrong shape becomes an ADAPTER_ERROR instead of breaking the call. A call its caller gave up on
 * (the tab navigated, the hub ended it) is forgotten at once, whether or not the page ever answers
 * it, and the door is told to stop waiting for it.
 *
 * Every exchange targets the very document the door was put in. A door that closes while an
 * exchange carries calls (the plugin was turned off, removed or rebuilt) fails those calls: they
 * may have run, so they are never sent again. The worker keeps a bounded amount from a door: an
 * answer holding more items than an honest door can hand out at once, an answer to a call
 * numbered before the worker took up the door, or a gap in the numbering that no exchange still
 * running can fill breaks the door (its calls fail and it is closed).
 */
import type { AdapterCall, DoorCall, DoorItem, PageEvent } from "../../../protocol/adapter.ts";
import { type HubError, hubError } from "../../../protocol/errors.ts";
import {
  doorCancel,
  doorClose,
  doorExchange,
  doorNextSeq,
  type Missing,
} from "../shared/page_functions.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";
import { isDocumentGone } from "./chrome_errors.ts";
import {
  deliver,
  type DoorShared,
  type DoorState,
  gapStuck,
  type MaybeMissing,
  PARALLEL_EXCHANGES,
} from "./door_state.ts";

/** How long one "wait" exchange waits in the page for an event before it is asked again. */
const WAIT_MS = 20_000;
/** How long calls wait to go together in one exchange while PARALLEL_EXCHANGES run. */
export const BATCH_MS = 4;

export interface DoorExchanges {
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

/** How the door of an exchange was found gone: nothing ran, the page went, or it was closed. */
type Gone = "unsent" | "navigated" | "closed";

async function lostAnswer(tabId: number): Promise<HubError> {
  const exists = await chrome.tabs.get(tabId).then(() => true, () => false);
  return exists
    ? hubError(
      "TAB_NAVIGATED",
      `Tab ${tabId}'s page went away while the call ran (it navigated or reloaded), so ` +
        "its answer was lost. Try again once the page has loaded.",
    )
    : hubError("TAB_CLOSED", `Tab ${tabId} was closed while the call ran.`);
}

/** Every door call goes to the document the door is in, never to a later one in the tab. */
const targetOf = (state: DoorState) => ({
  tabId: state.tabId,
  documentIds: [state.door.documentId],
});

/** The calls of an exchange whose door closed under them. */
function closedMidCall(state: DoorState): HubError {
  return hubError(
    "ADAPTER_ERROR",
    `The ${
      state.plugin.slice(0, 100)
    } adapter in tab ${state.tabId} was closed while the call ran ` +
      "(the plugin was turned off, removed or replaced by a new build). The call has probably " +
      "run and is not run again: check its effect, then call again if the plugin is on.",
  );
}

/** The door's state, taken up (and synced) the first time the worker meets the door. */
function stateOf(shared: DoorShared, tabId: number, plugin: string, door: DoorRecord): DoorState {
  let state = shared.states.get(door.key);
  if (!state) {
    state = {
      tabId,
      plugin,
      door,
      pending: new Map(),
      synced: Promise.resolve(),
      nextSeq: 1,
      held: new Map(),
      waiting: false,
      dead: false,
      broken: false,
      queue: [],
      running: 0,
      late: 0,
      started: 0,
      inFlight: new Set(),
    };
    state.synced = sync(state);
    shared.states.set(door.key, state);
  }
  return state;
}

/**
 * A door numbers its items for as long as it lives, and a service worker that stopped took the
 * ones it had taken with it: a door taken up again starts where it is now, before any exchange. A
 * door that does not answer leaves it at 1; the first exchange then finds out what is wrong.
 */
async function sync(state: DoorState) {
  const frames = await chrome.scripting.executeScript({
    target: targetOf(state),
    world: "MAIN",
    func: doorNextSeq,
    args: [state.door.key, state.door.secret],
  }).catch(() => undefined);
  const seq = (frames?.[0]?.result as { seq?: unknown } | undefined)?.seq;
  if (typeof seq === "number" && Number.isInteger(seq) && seq >= 1) state.nextSeq = seq;
}

/** The door is dead: nothing more is taken from it, and a later call takes up a new one. */
function forget(shared: DoorShared, state: DoorState) {
  state.dead = true;
  state.held.clear();
  if (shared.states.get(state.door.key) === state) shared.states.delete(state.door.key);
}

/**
 * The door is gone. The calls of the exchange that found out either never ran ("unsent": they
 * may run elsewhere), lost their answer with the page ("navigated"), or were in the door when
 * it closed ("closed": they may have run, so they fail and are never sent again). Other calls
 * hear it from their own exchanges.
 */
async function close(shared: DoorShared, state: DoorState, calls: DoorCall[], gone: Gone) {
  forget(shared, state);
  if (calls.length === 0) return;
  const error = gone === "navigated"
    ? await lostAnswer(state.tabId)
    : gone === "closed"
    ? closedMidCall(state)
    : undefined;
  for (const call of calls) {
    const waiting = state.pending.get(call.id);
    state.pending.delete(call.id);
    if (error) waiting?.reject(error);
    else waiting?.resolve({ missing: true });
  }
}

/**
 * The door answered what no honest adapter does (a page script tampered with built-ins the
 * adapter uses): every call sent to it fails, and the door is closed and forgotten, so the
 * next call gets a fresh adapter.
 */
function breakDoor(shared: DoorShared, state: DoorState, why: string) {
  forget(shared, state);
  state.broken = true;
  const error = hubError(
    "ADAPTER_ERROR",
    `The ${state.plugin.slice(0, 100)} adapter in tab ${state.tabId} ${why}, which it never ` +
      "does on its own (a page script may have tampered with it), so the extension closed " +
      "it. The call may have run and is not run again; check its effect before calling again.",
  );
  for (const waiting of state.pending.values()) waiting.reject(error);
  state.pending.clear();
  state.queue = [];
  void (async () => {
    const record = await shared.doors.get(state.tabId, state.plugin);
    if (record?.key === state.door.key) shared.doors.delete(state.tabId, state.plugin);
    await chrome.scripting.executeScript({
      target: targetOf(state),
      world: "MAIN",
      func: doorClose,
      args: [state.door.key, state.door.secret],
    });
  })().catch(() => {}); // the document is gone: so is its door
}

/** One `executeScript` to the door carrying `calls` (none: a wait for events). */
async function exchange(shared: DoorShared, state: DoorState, calls: DoorCall[], waitMs: number) {
  const n = ++state.started;
  state.inFlight.add(n);
  try {
    await send(shared, state, calls, waitMs);
  } finally {
    state.inFlight.delete(n);
    if (!state.dead && gapStuck(state)) {
      breakDoor(shared, state, "left a gap in the numbering of its items");
    }
  }
}

/** Sends `calls`, then takes in the items the door answers with, or closes it as found gone. */
async function send(shared: DoorShared, state: DoorState, calls: DoorCall[], waitMs: number) {
  let answer: { items: DoorItem[] } | Missing | { closed: true } | undefined;
  await state.synced;
  if (state.dead) return void await close(shared, state, calls, "unsent");
  try {
    const [frame] = await chrome.scripting.executeScript({
      target: targetOf(state),
      world: "MAIN",
      func: doorExchange,
      args: [state.door.key, state.door.secret, calls, waitMs],
    });
    answer = frame?.result as typeof answer;
  } catch (error) {
    const nothingRan = isDocumentGone(error);
    return void await close(shared, state, calls, nothingRan ? "unsent" : "navigated");
  }
  if (state.broken) return; // its calls have failed already
  if (answer && "missing" in answer) return void await close(shared, state, calls, "unsent");
  if (!answer || !("items" in answer)) return void await close(shared, state, calls, "closed");
  const wrong = deliver(shared, state, Array.isArray(answer.items) ? answer.items : []);
  if (wrong) breakDoor(shared, state, wrong);
  // The door closed under another exchange: calls of this one still unanswered never will be.
  else if (state.dead) await close(shared, state, calls, "closed");
}

/** Sends the queued calls in one exchange now. */
function flush(shared: DoorShared, state: DoorState) {
  clearTimeout(state.timer);
  state.timer = undefined;
  if (state.queue.length === 0) return;
  const calls = state.queue;
  state.queue = [];
  state.running++;
  void exchange(shared, state, calls, 0).finally(() => {
    state.running--;
    flush(shared, state);
  });
}

/** Queues a call: it goes now while fewer than PARALLEL_EXCHANGES run, else with the next batch. */
function enqueue(shared: DoorShared, state: DoorState, call: DoorCall) {
  state.queue.push(call);
  if (state.running < PARALLEL_EXCHANGES) flush(shared, state);
  else state.timer ??= setTimeout(() => flush(shared, state), BATCH_MS);
}

/** Keeps one "wait" exchange running while the door lives, so events between calls come in. */
async function waitLoop(shared: DoorShared, state: DoorState) {
  state.waiting = true;
  try {
    while (!state.dead) await exchange(shared, state, [], WAIT_MS);
  } finally {
    state.waiting = false;
  }
}

/**
 * Tells the door the worker let go of call `id` (the hub ended it, or its tab work stopped), so
 * the exchange carrying it stops waiting for it; its answer, if it ever comes, goes out later.
 */
function letGo(state: DoorState, id: number) {
  void chrome.scripting.executeScript({
    target: targetOf(state),
    world: "MAIN",
    func: doorCancel,
    args: [state.door.key, state.door.secret, [id]],
  }).catch(() => {}); // the document is gone: so is the call
}

/** The answer to call `id`, unless `signal` aborts first: then the state forgets the call. */
function answerOf(
  shared: DoorShared,
  state: DoorState,
  call: DoorCall,
  signal?: AbortSignal,
): Promise<MaybeMissing> {
  return new Promise<MaybeMissing>((resolve, reject) => {
    const giveUp = () => {
      const sent = !state.queue.some((queued) => queued.id === call.id);
      if (state.pending.delete(call.id) && sent && !state.dead) {
        state.late++;
        letGo(state, call.id);
      }
      state.queue = state.queue.filter((queued) => queued.id !== call.id);
      reject(signal!.reason);
    };
    const settled = () => signal?.removeEventListener("abort", giveUp);
    state.pending.set(call.id, {
      resolve: (result) => (settled(), resolve(result)),
      reject: (error) => (settled(), reject(error)),
      dispatchId: call.request.dispatchId,
    });
    signal?.addEventListener("abort", giveUp, { once: true });
    enqueue(shared, state, call);
  });
}

/** `onEvent` gets each event with the tab and the plugin whose door it came out of. */
export function createDoorExchanges(
  doors: AdapterDoors,
  onEvent: (tabId: number, plugin: string, event: PageEvent) => void,
): DoorExchanges {
  const shared: DoorShared = { doors, onEvent, states: new Map() };
  let nextId = 1;

  function watch(tabId: number, plugin: string, door: DoorRecord) {
    const state = stateOf(shared, tabId, plugin, door);
    if (!state.waiting && !state.dead) void waitLoop(shared, state);
  }

  return {
    watch,
    async call(tabId, plugin, hash, request, signal) {
      const door = await doors.get(tabId, plugin);
      signal?.throwIfAborted();
      if (!door || door.hash !== hash) return { missing: true };
      const state = stateOf(shared, tabId, plugin, door);
      if (!state.waiting) void waitLoop(shared, state);
      return await answerOf(shared, state, { id: nextId++, request }, signal);
    },
    waitingCalls: () =>
      [...shared.states.values()].reduce((sum, state) => sum + state.pending.size, 0),
  };
}
