/// <reference lib="deno.ns" />
/**
 * page_links.ts with a fake `chrome.scripting.executeScript` that runs the page function here,
 * against a fake door on `globalThis`: calls and their answers, the order of events, and what a
 * door that went away does to calls.
 */
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import type { DoorCall, DoorItem, PageEvent } from "../../../protocol/adapter.ts";
import { failureOf, withChrome } from "./_test_fixtures.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";
import { createPageLinks } from "./page_links.ts";

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

async function withDoor(
  door: unknown,
  run: (events: [number, string, PageEvent][]) => Promise<void>,
  executeError?: string,
) {
  const scope = globalThis as unknown as Record<string, unknown>;
  scope[DOOR.key] = door;
  try {
    await withChrome({
      tabs: { get: (tabId: number) => Promise.resolve({ id: tabId }) },
      scripting: {
        executeScript: async (d: { func: (...a: unknown[]) => unknown; args: unknown[] }) => {
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
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), (t, p, e) => {
      events.push([t, p, e]);
    });
    const result = await links.call(4, "app", "abc", request("d-1"));
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
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), (_t, _p, e) => events.push(e));
    await links.call(4, "app", "abc", request("d-1"));
    assertEquals(events.map((e) => e.kind), ["log"]);
  });
});

Deno.test("no door for the tab, or a door of another build: missing", async () => {
  const { door } = fakeDoor(() => []);
  await withDoor(door, async () => {
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), () => {});
    assertEquals(await links.call(5, "app", "abc", request("d")), { missing: true });
    assertEquals(await links.call(4, "app", "newer", request("d")), { missing: true });
  });
});

Deno.test("a door that refuses or is gone answers missing; a result of the wrong shape is an ADAPTER_ERROR", async () => {
  await withDoor(fakeDoor(() => null).door, async () => {
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), () => {});
    assertEquals(await links.call(4, "app", "abc", request("d")), { missing: true });
  });
  await withDoor(undefined, async () => {
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), () => {});
    assertEquals(await links.call(4, "app", "abc", request("d")), { missing: true });
  });
  const forged = fakeDoor((calls) => [
    { seq: 1, kind: "result", id: calls[0].id, result: { FORGED: true } as never },
  ]);
  await withDoor(forged.door, async () => {
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), () => {});
    const result = await links.call(4, "app", "abc", request("d"));
    assert("ok" in result && !result.ok && result.error.code === "ADAPTER_ERROR");
  });
});

Deno.test("a document that is gone before the call: missing; gone during it: TAB_NAVIGATED", async () => {
  const { door } = fakeDoor(() => []);
  await withDoor(door, async () => {
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), () => {});
    assertEquals(await links.call(4, "app", "abc", request("d")), { missing: true });
  }, "No document with id doc-1 in tab with id 4");
  await withDoor(door, async () => {
    const links = createPageLinks(memoryDoors({ "4/app": DOOR }), () => {});
    const failure = await failureOf(links.call(4, "app", "abc", request("d")));
    assertEquals(failure.payload.code, "TAB_NAVIGATED");
  }, "The frame was removed.");
});
