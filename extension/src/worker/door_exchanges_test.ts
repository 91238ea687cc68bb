/// <reference lib="deno.ns" />
/**
 * door_exchanges.ts with a fake `chrome.scripting.executeScript` that runs the page function here,
 * against a fake door on `globalThis`: calls and their answers, the order of events, and what a
 * door that went away does to calls.
 */
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import {
  type DoorCall,
  type DoorItem,
  MAX_QUEUED_EVENTS,
  type PageEvent,
} from "../../../protocol/adapter.ts";
import { until } from "../../../tests/helpers/until.ts";
import { failureOf, withChrome } from "./_test_fixtures.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";
import { createDoorExchanges } from "./door_exchanges.ts";
import { checkedAnswer } from "./door_state.ts";

const DOOR: DoorRecord = {
  documentId: "doc-1",
  hash: "abc",
  key: "__hubAdapter:app:k1",
  secret: "s",
};

function memoryDoors(records: Record<string, DoorRecord>): AdapterDoors {
  return {
    get: (tabId, plugin) => Promise.resolve(records[`${tabId}/${plugin}`]),
    set: (tabId, plugin, record) => void (records[`${tabId}/${plugin}`] = record),
    delete: (tabId, plugin) => void delete records[`${tabId}/${plugin}`],
    forgetTab: () => {},
  };
}

/** A door on globalThis that answers each exchange with the items `answer` gives. */
function fakeDoor(answer: (calls: DoorCall[]) => DoorItem[] | null) {
  const seen: { secret: string; calls: DoorCall[] }[] = [];
  const door = {
    exchange(secret: string, calls: DoorCall[], waitMs: number) {
      if (calls.length === 0) return new Promise(() => {}); // the wait exchange: never returns
      seen.push({ secret, calls });
      return Promise.resolve(answer(calls));
      // deno-lint-ignore no-unreachable
      void waitMs;
    },
  };
  return { door, seen };
}

/** What each `executeScript` of the last `withDoor` went to, and which page function it ran. */
const sent: { target: { tabId: number; documentIds?: string[] }; func: string }[] = [];

async function withDoor(
  door: unknown,
  run: (events: [number, string, PageEvent][]) => Promise<void>,
  executeError?: string,
) {
  const scope = globalThis as unknown as Record<string, unknown>;
  scope[DOOR.key] = door;
  sent.length = 0;
  try {
    await withChrome({
      tabs: { get: (tabId: number) => Promise.resolve({ id: tabId }) },
      scripting: {
        executeScript: async (
          d: { func: (...a: unknown[]) => unknown; args: unknown[]; target: never },
        ) => {
          sent.push({ target: d.target, func: d.func.name });
          if (executeError) throw new Error(executeError);
          return [{ result: structuredClone(await d.func(...d.args)), documentId: "doc-1" }];
        },
      },
    }, () => run([]));
  } finally {
    delete scope[DOOR.key];
  }
}

const request = (dispatchId: string) => ({ tool: "echo", input: {}, dispatchId, settings: {} });

Deno.test("a call goes to the door with its secret; progress and logs come before its answer", async () => {
  const { door, seen } = fakeDoor((calls) => [
    { seq: 2, kind: "result", id: calls[0].id, result: { ok: true, value: "done" } },
    { seq: 1, kind: "progress", dispatchId: "d-1", progress: 1 },
  ]);
  await withDoor(door, async () => {
    const events: [number, string, PageEvent][] = [];
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), (t, p, e) => {
      events.push([t, p, e]);
    });
    const result = await exchanges.call(4, "app", "abc", request("d-1"));
    assertEquals(result, { ok: true, value: "done" });
    assertEquals(seen.map((s) => s.secret), ["s"]);
    assertEquals(seen[0].calls[0].request.dispatchId, "d-1");
    assertEquals(events, [[4, "app", { kind: "progress", dispatchId: "d-1", progress: 1 }]]);
  });
});

Deno.test("progress for a call the door is not running is dropped", async () => {
  const { door } = fakeDoor((calls) => [
    { seq: 1, kind: "progress", dispatchId: "someone-else", progress: 1 },
    { seq: 2, kind: "log", entries: [{ level: "info", message: "m", timestamp: 1 }] },
    { seq: 3, kind: "result", id: calls[0].id, result: { ok: true, value: 1 } },
  ]);
  await withDoor(door, async () => {
    const events: PageEvent[] = [];
    const exchanges = createDoorExchanges(
      memoryDoors({ "4/app": DOOR }),
      (_t, _p, e) => events.push(e),
    );
    await exchanges.call(4, "app", "abc", request("d-1"));
    assertEquals(events.map((e) => e.kind), ["log"]);
  });
});

Deno.test("no door for the tab, or a door of another build: missing", async () => {
  const { door } = fakeDoor(() => []);
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    assertEquals(await exchanges.call(5, "app", "abc", request("d")), { missing: true });
    assertEquals(await exchanges.call(4, "app", "newer", request("d")), { missing: true });
  });
});

Deno.test("a door that is not there answers missing; a result of the wrong shape is an ADAPTER_ERROR", async () => {
  await withDoor(undefined, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    assertEquals(await exchanges.call(4, "app", "abc", request("d")), { missing: true });
  });
  const forged = fakeDoor((calls) => [
    { seq: 1, kind: "result", id: calls[0].id, result: { FORGED: true } as never },
  ]);
  await withDoor(forged.door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    const result = await exchanges.call(4, "app", "abc", request("d"));
    assert("ok" in result && !result.ok && result.error.code === "ADAPTER_ERROR");
  });
});

Deno.test("a tabId in the page's answer is dropped, whatever it is: the page never owns the tab", () => {
  assertEquals(checkedAnswer({ ok: true, value: 1, tabId: 99 }), { ok: true, value: 1 });
  assertEquals(checkedAnswer({ ok: true, value: 1, tabId: "x" }), { ok: true, value: 1 });
  assertEquals(checkedAnswer({ ok: true, value: 1, tabId: 2 ** 60 }), { ok: true, value: 1 });
  const failed = checkedAnswer({ ok: false, error: { nope: 1 }, tabId: 3 });
  assert("ok" in failed && !failed.ok && failed.error.code === "ADAPTER_ERROR");
});

Deno.test("a document that is gone before the call: missing; gone during it: TAB_NAVIGATED", async () => {
  const { door } = fakeDoor(() => []);
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    assertEquals(await exchanges.call(4, "app", "abc", request("d")), { missing: true });
  }, "No document with id doc-1 in tab with id 4");
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    const failure = await failureOf(exchanges.call(4, "app", "abc", request("d")));
    assertEquals(failure.payload.code, "TAB_NAVIGATED");
  }, "The frame was removed.");
});

/**
 * A door as the SDK makes it: it numbers its items for its whole life, hands out `nextSeq`, and
 * answers each call once the test lets it (`hang` keeps a call unanswered).
 */
function countingDoor(start: number) {
  let seq = start;
  const hang = new Set<string>();
  const door = {
    nextSeq: (secret: string) => secret === DOOR.secret ? seq + 1 : null,
    exchange(_secret: string, calls: DoorCall[], _waitMs: number) {
      if (calls.length === 0) return new Promise(() => {}); // the wait exchange: never returns
      const answered = calls.filter((call) => !hang.has(call.request.dispatchId));
      if (answered.length < calls.length) return new Promise(() => {}); // a handler that hangs
      return Promise.resolve(answered.flatMap((call): DoorItem[] => [
        { seq: ++seq, kind: "progress", dispatchId: call.request.dispatchId, progress: 1 },
        { seq: ++seq, kind: "result", id: call.id, result: { ok: true, value: call.id } },
      ]));
    },
  };
  return { door, hang };
}

Deno.test("a door taken up after a worker restart starts where it counts now", async () => {
  const { door } = countingDoor(0);
  await withDoor(door, async () => {
    const records = { "4/app": DOOR };
    const before = createDoorExchanges(memoryDoors(records), () => {});
    for (let i = 0; i < 3; i++) await before.call(4, "app", "abc", request(`old-${i}`));
    // The worker stopped: a new one finds the same door (kept in session storage), at item 7.
    const events: PageEvent[] = [];
    const after = createDoorExchanges(memoryDoors(records), (_t, _p, e) => events.push(e));
    const result = await after.call(4, "app", "abc", request("new"));
    assert("ok" in result && result.ok);
    assertEquals(events, [{ kind: "progress", dispatchId: "new", progress: 1 }]);
    assertEquals(after.waitingCalls(), 0);
  });
});

Deno.test("a call its caller gave up on is forgotten, though the page never answers it", async () => {
  const { door: counting, hang } = countingDoor(0);
  hang.add("stuck");
  const cancelled: { secret: string; ids: number[] }[] = [];
  const door = {
    ...counting,
    cancel: (secret: string, ids: number[]) => (cancelled.push({ secret, ids }), true),
  };
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    const stop = new AbortController();
    const stuck = exchanges.call(4, "app", "abc", request("stuck"), stop.signal);
    await until(() => exchanges.waitingCalls() === 1, "the call to be sent");
    stop.abort(new Error("gave up"));
    assertEquals(await stuck.then(() => "answered", (error) => error.message), "gave up");
    assertEquals(exchanges.waitingCalls(), 0);
    // The door is told to stop waiting for it, in the door's own document.
    await until(() => cancelled.length === 1, "the door to hear the cancel");
    assertEquals(cancelled, [{ secret: "s", ids: [1] }]);
    assertEquals(sent.at(-1), {
      target: { tabId: 4, documentIds: ["doc-1"] },
      func: "doorCancel",
    });
    // The door still serves other calls.
    assertEquals(await exchanges.call(4, "app", "abc", request("next")), { ok: true, value: 2 });
    assertEquals(exchanges.waitingCalls(), 0);
  });
});

Deno.test("a door closed while its call ran fails the call once, never as missing (so it is not re-run)", async () => {
  const { door, seen } = fakeDoor(() => null); // closed: the answer of a closed door
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    const failure = await failureOf(exchanges.call(4, "app", "abc", request("d")));
    assertEquals(failure.payload.code, "ADAPTER_ERROR");
    assertMatch(failure.message, /closed while the call ran.*not run again/s);
    assertEquals(seen.length, 1);
    assertEquals(exchanges.waitingCalls(), 0);
  });
});

Deno.test("every door call goes to the door's own document, never just to the tab", async () => {
  const { door } = countingDoor(0);
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    await exchanges.call(4, "app", "abc", request("d"));
    assert(sent.length >= 2);
    for (const { target } of sent) assertEquals(target, { tabId: 4, documentIds: ["doc-1"] });
    assertEquals(sent[0].func, "doorNextSeq");
  });
});

/**
 * A door whose answer to a call is `extra` items and the call's result as item 3; its wait
 * exchanges end empty at once, as an honest one does after waiting for events.
 */
function tamperedDoor(extra: () => DoorItem[]) {
  let closed = 0;
  const door = {
    nextSeq: () => 1,
    close: () => (closed++, true),
    exchange(_secret: string, calls: DoorCall[]) {
      if (calls.length === 0) return new Promise((resolve) => setTimeout(() => resolve([]), 5));
      return Promise.resolve([
        ...extra(),
        { seq: 3, kind: "result", id: calls[0].id, result: { ok: true, value: 1 } },
      ]);
    },
  };
  return { door, closed: () => closed };
}

async function brokenBy(extra: () => DoorItem[], why: RegExp) {
  const { door, closed } = tamperedDoor(extra);
  await withDoor(door, async () => {
    const records: Record<string, DoorRecord> = { "4/app": DOOR };
    const exchanges = createDoorExchanges(memoryDoors(records), () => {});
    const failure = await failureOf(exchanges.call(4, "app", "abc", request("d")));
    assertEquals(failure.payload.code, "ADAPTER_ERROR");
    assertMatch(failure.message, why);
    assertMatch(failure.message, /not run again/);
    assertEquals(exchanges.waitingCalls(), 0);
    await until(() => closed() === 1, "the door to be closed");
    assertEquals(records["4/app"], undefined);
  });
}

const log = (seq: number): DoorItem => ({ seq, kind: "log", entries: [] });

Deno.test("an answer with more items than a door keeps breaks the door and closes it", async () => {
  await brokenBy(
    () => Array.from({ length: MAX_QUEUED_EVENTS + 5 }, (_, i) => log(i + 4)),
    /handed out 2006 items at once/,
  );
});

Deno.test("items numbered far ahead are dropped; a gap nothing can fill breaks the door", async () => {
  await brokenBy(() => [log(1e9), log(1e9 + 1), log(5)], /gap in the numbering/);
});

Deno.test("an answer numbered before the worker took up the door breaks it", async () => {
  const { door } = countingDoor(0);
  const answered = door.exchange;
  door.exchange = (secret, calls, waitMs) =>
    calls.length === 0 ? answered(secret, calls, waitMs) : Promise.resolve([
      { seq: 0, kind: "result", id: calls[0].id, result: { ok: true, value: "old" } },
    ]);
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    const failure = await failureOf(exchanges.call(4, "app", "abc", request("d")));
    assertMatch(failure.message, /numbered an answer before/);
  });
});

Deno.test("answers that come out of order still arrive: a gap an exchange still out fills is no break", async () => {
  let release!: () => void;
  const first = new Promise<void>((resolve) => (release = resolve));
  let n = 0;
  const door = {
    nextSeq: () => 1,
    async exchange(_secret: string, calls: DoorCall[]) {
      if (calls.length === 0) return await new Promise(() => {});
      // The first exchange took item 1 but its answer comes back after the second's (item 2).
      if (++n === 1) {
        await first;
        return [{ seq: 1, kind: "result", id: calls[0].id, result: { ok: true, value: "a" } }];
      }
      setTimeout(release, 10);
      return [{ seq: 2, kind: "result", id: calls[0].id, result: { ok: true, value: "b" } }];
    },
  };
  await withDoor(door, async () => {
    const exchanges = createDoorExchanges(memoryDoors({ "4/app": DOOR }), () => {});
    const a = exchanges.call(4, "app", "abc", request("a"));
    await until(() => n === 1, "the first call to be sent");
    const b = exchanges.call(4, "app", "abc", request("b"));
    assertEquals(await Promise.all([a, b]), [{ ok: true, value: "a" }, { ok: true, value: "b" }]);
  });
});
