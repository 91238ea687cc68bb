import { assertEquals } from "../../tests/helpers/assert.ts";
import { createConnTable, type TrackedConn } from "./conn_table.ts";
import { connectionCap, FDS_PER_CONNECTION, MAX_CONNECTIONS_CEILING } from "./conn_cap.ts";

function conn(name: string, fields: Partial<TrackedConn>): TrackedConn & { name: string } {
  return {
    name,
    lastActive: 0,
    headSince: undefined,
    silent: false,
    upgraded: false,
    trusted: false,
    closing: false,
    close() {},
    ...fields,
  };
}

Deno.test("the newcomer at the cap replaces the oldest unfinished head, else the least active non-WebSocket", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10);
  const ws = conn("ws", { lastActive: 1, upgraded: true });
  const sse = conn("sse", { lastActive: 5 });
  const idle = conn("idle", { lastActive: 3 });
  for (const c of [ws, sse, idle]) table.add(c);
  assertEquals(table.victim()?.name, "idle");
  assertEquals(table.victim("head-pending"), undefined, "only unfinished heads when asked");
  table.add(conn("slow-late", { lastActive: 100, headSince: 50 }));
  table.add(conn("slow-early", { lastActive: 100, headSince: 20 }));
  assertEquals(table.victim()?.name, "slow-early");
  assertEquals(table.victim("head-pending")?.name, "slow-early");
  assertEquals(table.size, 5);
  table.remove(ws);
  assertEquals(table.size, 4);
});

Deno.test("at the cap, strangers give way before connections that showed the secret", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10);
  const sse = conn("authenticated SSE stream", { lastActive: 1, trusted: true });
  const call = conn("authenticated slow call", { lastActive: 2, trusted: true });
  const ws = conn("extension", { lastActive: 0, upgraded: true, trusted: true });
  const flood = [5, 3, 4].map((t) => conn(`flood-${t}`, { lastActive: t }));
  for (const c of [sse, call, ws, ...flood]) table.add(c);
  assertEquals(table.victim()?.name, "flood-3", "the least active stranger");
  const newcomer = conn("newcomer", { lastActive: 9, headSince: 9 });
  table.add(newcomer);
  assertEquals(table.victim()?.name, "newcomer", "an unfinished head goes first");
  for (const c of [newcomer, ...flood]) table.remove(c);
  assertEquals(table.victim("untrusted"), undefined, "strangers only when asked");
  assertEquals(table.victim()?.name, "authenticated SSE stream", "then the least active trusted");
  table.remove(sse);
  table.remove(call);
  assertEquals(table.victim(), undefined, "never the WebSocket");
});

Deno.test("a connection just accepted is not a slow head yet: a finished stranger gives way first", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10, 500);
  table.add(conn("flood", { lastActive: 100 }));
  table.add(conn("fresh", { lastActive: 1_000, headSince: 1_000 }));
  assertEquals(table.victim("any", 1_200)?.name, "flood", "within the grace period");
  assertEquals(table.victim("any", 1_500)?.name, "fresh", "after it, a slow head goes first");
  assertEquals(table.victim("head-pending", 1_200), undefined);
});

Deno.test("silent connections (not one byte yet) give way before finished strangers, oldest first", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10, 500);
  table.add(conn("stranger waiting for its answer", { lastActive: 100 }));
  table.add(conn("silent-late", { lastActive: 1_100, headSince: 1_100, silent: true }));
  table.add(conn("silent-early", { lastActive: 1_000, headSince: 1_000, silent: true }));
  table.add(conn("trusted", { lastActive: 50, trusted: true }));
  assertEquals(table.victim("any", 1_200)?.name, "silent-early", "within the grace period too");
  assertEquals(table.victim("head-pending", 1_200)?.name, "silent-early");
  assertEquals(table.victim("untrusted", 1_200)?.name, "silent-early");
});

Deno.test("a silent connection added since the last settle() is unread until the event loop had a turn", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10);
  const silent = conn("silent", { headSince: 0, silent: true });
  const spoke = conn("spoke", { headSince: 0 });
  table.add(silent);
  table.add(spoke);
  assertEquals([table.unread(silent), table.unread(spoke)], [true, false]);
  table.settle();
  assertEquals(table.unread(silent), false);
  const later = conn("later", { headSince: 0, silent: true });
  table.add(later);
  assertEquals([table.unread(silent), table.unread(later)], [false, true]);
});

Deno.test("descriptors: a silent connection holds one, one that spoke FDS_PER_CONNECTION, a closing one none of the live count", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10);
  table.add(conn("silent", { silent: true }));
  table.add(conn("busy", {}));
  table.add(conn("closing", { closing: true }));
  assertEquals(table.descriptors, 1 + FDS_PER_CONNECTION);
});

Deno.test("descriptors and live are running counts: refresh after silent or closing changes, remove", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10);
  const a = conn("a", { silent: true });
  const b = conn("b", { silent: true });
  table.add(a);
  table.add(b);
  assertEquals([table.descriptors, table.live], [2, 2]);
  a.silent = false;
  table.refresh(a);
  assertEquals([table.descriptors, table.live], [1 + FDS_PER_CONNECTION, 2]);
  a.closing = true;
  table.refresh(a);
  assertEquals([table.descriptors, table.live, table.size], [1, 1, 2]);
  table.remove(a);
  table.remove(a); // twice: counted once
  assertEquals([table.descriptors, table.live, table.size], [1, 1, 1]);
  table.add(b); // again: counted once
  table.remove(b);
  table.refresh(b); // no longer in the table: nothing changes
  assertEquals([table.descriptors, table.live, table.size], [0, 0, 0]);
});

Deno.test("closing connections count but never give way nor expire", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10);
  table.add(conn("closing", { lastActive: 0, headSince: 0, closing: true }));
  table.add(conn("idle", { lastActive: 5 }));
  assertEquals([table.size, table.live], [2, 1]);
  assertEquals(table.victim()?.name, "idle");
  assertEquals(table.expired(1_000, 10), []);
});

Deno.test("heads older than the timeout are expired; finished heads never are", () => {
  const table = createConnTable<ReturnType<typeof conn>>(10);
  table.add(conn("old", { headSince: 0 }));
  table.add(conn("young", { headSince: 900 }));
  table.add(conn("streaming", { lastActive: 0 }));
  assertEquals(table.expired(1000, 500).map((c) => c.name), ["old"]);
});

Deno.test("the connection cap leaves a reserve of descriptors and stays within bounds", () => {
  assertEquals(connectionCap(256), 48); // (256 - 64) / 4
  assertEquals(connectionCap(1024), 192); // (1024 - 256) / 4
  assertEquals(connectionCap(1_048_576), MAX_CONNECTIONS_CEILING);
  assertEquals(connectionCap(20), 8);
});
