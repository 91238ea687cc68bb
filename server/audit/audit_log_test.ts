import { assert, assertEquals, assertMatch, assertThrows } from "../../tests/helpers/assert.ts";
import { AUDIT_RING_SIZE, type AuditEntry } from "../../protocol/audit.ts";
import type { AuditFile } from "./audit_file.ts";
import {
  AUDIT_ENTRY_MAX_BYTES,
  AUDIT_MESSAGE_MAX_CHARS,
  createAuditLog,
  parseAuditQuery,
} from "./audit_log.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function entry(i: number, over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    timestamp: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
    tool: `p${i % 3}__t${i % 2}`,
    plugin: `p${i % 3}`,
    success: i % 4 !== 0,
    durationMs: i,
    ...over,
  };
}

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2025, 0, 1, 12)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** An AuditFile that remembers what it got. */
function fakeFile() {
  const appended: AuditEntry[] = [];
  let closes = 0;
  const file: AuditFile = {
    append: (e) => void appended.push(e),
    close: () => void closes++,
  };
  return { file, appended, closes: () => closes };
}

Deno.test("the ring keeps the newest 500 of 600 records, newest first", () => {
  assertEquals(AUDIT_RING_SIZE, 500);
  const log = createAuditLog(undefined);
  const entries = Array.from({ length: 600 }, (_, i) => entry(i));
  for (const e of entries) log.record(e);
  const all = log.query({ limit: 1000 });
  assertEquals(all.length, 500);
  assertEquals(all, entries.slice(100).reverse());
  assertEquals(all[0].durationMs, 599);
  assertEquals(all.at(-1)!.durationMs, 100);
});

Deno.test("query returns newest first before the ring is full, and honours limit", () => {
  const log = createAuditLog(undefined);
  for (let i = 0; i < 10; i++) log.record(entry(i));
  assertEquals(log.query({ limit: 50 }).map((e) => e.durationMs), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  assertEquals(log.query({ limit: 3 }).map((e) => e.durationMs), [9, 8, 7]);
  assertEquals(log.query({ limit: 1 }).map((e) => e.durationMs), [9]);
  assertEquals(createAuditLog(undefined).query({ limit: 50 }), []);
});

Deno.test("limit applies after the ring wraps, to the newest entries", () => {
  const log = createAuditLog(undefined);
  for (let i = 0; i < 503; i++) log.record(entry(i));
  assertEquals(log.query({ limit: 4 }).map((e) => e.durationMs), [502, 501, 500, 499]);
});

Deno.test("query filters by plugin, tool and success, and combines them", () => {
  const log = createAuditLog(undefined);
  const entries = Array.from({ length: 24 }, (_, i) => entry(i));
  for (const e of entries) log.record(e);
  const newestFirst = [...entries].reverse();

  assertEquals(
    log.query({ limit: 50, plugin: "p1" }),
    newestFirst.filter((e) => e.plugin === "p1"),
  );
  assertEquals(
    log.query({ limit: 50, tool: "p0__t1" }),
    newestFirst.filter((e) => e.tool === "p0__t1"),
  );
  assertEquals(log.query({ limit: 50, success: false }), newestFirst.filter((e) => !e.success));
  assertEquals(log.query({ limit: 50, success: true }), newestFirst.filter((e) => e.success));
  assertEquals(
    log.query({ limit: 50, plugin: "p2", success: true }),
    newestFirst.filter((e) => e.plugin === "p2" && e.success),
  );
  assertEquals(log.query({ limit: 50, plugin: "nobody" }), []);
});

Deno.test("limit counts matching entries, not scanned ones", () => {
  const log = createAuditLog(undefined);
  for (let i = 0; i < 30; i++) log.record(entry(i));
  const failures = log.query({ limit: 2, success: false });
  assertEquals(failures.map((e) => e.durationMs), [28, 24]);
});

Deno.test("every record is appended to the audit file, and close reaches it", () => {
  const fake = fakeFile();
  const log = createAuditLog(fake.file);
  const entries = Array.from({ length: 3 }, (_, i) => entry(i));
  for (const e of entries) log.record(e);
  assertEquals(fake.appended, entries);
  log.close();
  assertEquals(fake.closes(), 1);
  createAuditLog(undefined).close(); // no file: nothing to close
});

Deno.test("summary counts totals, failures and the average duration", () => {
  const log = createAuditLog(undefined);
  assertEquals(log.summary(), {
    totalInvocations: 0,
    successCount: 0,
    failureCount: 0,
    last24h: { total: 0, success: 0, failure: 0 },
    avgDurationMs: 0,
  });
  log.record(entry(1, { success: true, durationMs: 10 }));
  log.record(entry(2, { success: false, durationMs: 20 }));
  log.record(entry(3, { success: true, durationMs: 21 }));
  assertEquals(log.summary(), {
    totalInvocations: 3,
    successCount: 2,
    failureCount: 1,
    last24h: { total: 3, success: 2, failure: 1 },
    avgDurationMs: 17, // 51 / 3
  });
  log.record(entry(4, { success: false, durationMs: 0 }));
  assertEquals(log.summary().avgDurationMs, 12.8); // 51 / 4 = 12.75, one decimal
});

Deno.test("totals count every record, including those that left the ring", () => {
  const log = createAuditLog(undefined);
  for (let i = 0; i < 600; i++) log.record(entry(i, { success: i < 450, durationMs: 2 }));
  const summary = log.summary();
  assertEquals(summary.totalInvocations, 600);
  assertEquals(summary.successCount, 450);
  assertEquals(summary.failureCount, 150);
  assertEquals(summary.avgDurationMs, 2);
});

Deno.test("last24h drops entries older than 24 hours; totals keep them", () => {
  const clock = manualClock();
  const log = createAuditLog(undefined, clock.now);
  log.record(entry(1, { success: true }));
  log.record(entry(2, { success: false }));
  clock.advance(12 * HOUR);
  log.record(entry(3, { success: true }));
  assertEquals(log.summary().last24h, { total: 3, success: 2, failure: 1 });

  clock.advance(12 * HOUR + MINUTE); // the first two are now 24 h 1 min old
  const summary = log.summary();
  assertEquals(summary.last24h, { total: 1, success: 1, failure: 0 });
  assertEquals(summary.totalInvocations, 3);
  assertEquals(summary.failureCount, 1);

  clock.advance(12 * HOUR);
  assertEquals(log.summary().last24h, { total: 0, success: 0, failure: 0 });
  assertEquals(log.summary().totalInvocations, 3);
});

Deno.test("an entry 23 h 59 min old still counts in last24h", () => {
  const clock = manualClock();
  const log = createAuditLog(undefined, clock.now);
  log.record(entry(1, { success: false }));
  clock.advance(24 * HOUR - MINUTE);
  assertEquals(log.summary().last24h, { total: 1, success: 0, failure: 1 });
});

Deno.test("last24h stays right after more than a day of per-minute records", () => {
  const clock = manualClock();
  const log = createAuditLog(undefined, clock.now);
  // One record a minute for 25 hours: only the last 24 hours' worth count.
  const minutes = 25 * 60;
  for (let i = 0; i < minutes; i++) {
    log.record(entry(i, { success: true }));
    clock.advance(MINUTE);
  }
  clock.advance(-MINUTE); // back to the minute of the last record
  const summary = log.summary();
  assertEquals(summary.totalInvocations, minutes);
  assertEquals(summary.last24h.total, 24 * 60);
});

// --- parseAuditQuery ---

const q = (query: string) => parseAuditQuery(new URLSearchParams(query));

Deno.test("parseAuditQuery defaults limit to 50 and leaves filters unset", () => {
  assertEquals(q(""), { limit: 50, plugin: undefined, tool: undefined, success: undefined });
});

Deno.test("parseAuditQuery accepts limit 1 and 500 and reads the filters", () => {
  assertEquals(q("limit=1").limit, 1);
  assertEquals(q("limit=500").limit, 500);
  assertEquals(q("limit=20&plugin=slack&tool=slack__send&success=true"), {
    limit: 20,
    plugin: "slack",
    tool: "slack__send",
    success: true,
  });
  assertEquals(q("success=false").success, false);
});

Deno.test("parseAuditQuery rejects limits outside 1-500 or not whole numbers, naming limit", () => {
  for (const bad of ["0", "501", "abc", "1.5", "-1", "", "1e2", " 5"]) {
    assertThrows(
      () => q(`limit=${encodeURIComponent(bad)}`),
      (error: Error) => {
        assertMatch(error.message, /^limit must be a whole number from 1 to 500/);
        assertEquals(error.message.includes(`(got "${bad}")`), true, error.message);
        return true;
      },
      bad,
    );
  }
});

Deno.test("parseAuditQuery rejects success values other than true/false, naming success", () => {
  for (const bad of ["yes", "1", "TRUE", ""]) {
    assertThrows(
      () => q(`success=${bad}`),
      (error: Error) => {
        assertMatch(error.message, /^success must be "true" or "false"/);
        assertEquals(error.message.includes(`(got "${bad}")`), true, error.message);
        return true;
      },
      bad,
    );
  }
});

Deno.test("an entry with a huge error message is cut before it is kept or written", () => {
  const file = fakeFile();
  const log = createAuditLog(file.file);
  const huge = "x".repeat(30 * 1024 * 1024);
  log.record(entry(1, {
    success: false,
    tool: huge,
    error: { code: huge, message: huge, category: "validation" },
  }));
  const [kept] = log.query({ limit: 1 });
  for (const stored of [kept, file.appended[0]]) {
    const bytes = new TextEncoder().encode(JSON.stringify(stored)).length;
    assert(bytes <= AUDIT_ENTRY_MAX_BYTES, `${bytes} bytes`);
    assertEquals(stored.error!.message.length, AUDIT_MESSAGE_MAX_CHARS);
    assert(stored.error!.message.endsWith("…"));
    assertEquals(stored.error!.category, "validation");
  }
});

Deno.test("the ring stays under its byte bound when every entry is oversized", () => {
  const log = createAuditLog(undefined);
  const huge = "y".repeat(100_000);
  for (let i = 0; i < AUDIT_RING_SIZE + 10; i++) {
    log.record(entry(i, { success: false, error: { code: "E", message: huge } }));
  }
  const bytes = JSON.stringify(log.query({ limit: AUDIT_RING_SIZE })).length;
  assert(bytes <= AUDIT_RING_SIZE * AUDIT_ENTRY_MAX_BYTES, `${bytes} bytes`);
});

Deno.test("an entry's site is kept as written; one that is not an origin's plain text is left out", () => {
  const file = fakeFile();
  const log = createAuditLog(file.file);
  log.record(entry(1, { site: "https://app.example.com:8443" }));
  log.record(entry(2, { site: "bank.example" }));
  for (const odd of ["", "a b", 'a"b', "x".repeat(301), "https://\u00e9.example"]) {
    log.record(entry(3, { site: odd }));
  }
  assertEquals(file.appended.map((e) => e.site), [
    "https://app.example.com:8443",
    "bank.example",
    ...Array(5).fill(undefined),
  ]);
  assertEquals("site" in file.appended[2], false);
});
