/**
 * Security: an answered call is in `audit.log` even when the hub is killed at once afterwards.
 * A real hub and a fake extension answer a stream of calls (allowed ones and refused ones); the
 * hub gets SIGKILL right after a number of answers have arrived, while more calls are still on
 * their way. After each kill, `audit.log` holds a line for every call whose answer arrived, and
 * every line is whole JSON. Repeated over several kills of one config dir.
 */
import { join } from "node:path";
import type { AuditEntry } from "../../protocol/audit.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { type CliHub, DEMO_PLUGIN, startCliHub } from "../helpers/cli_tool_fixture.ts";

const ROUNDS = 3;
/** Calls running at once while the hub is killed. */
const IN_FLIGHT = 16;
/** Answers that arrive before the kill, per round. */
const ANSWERS_BEFORE_KILL = 150;

interface Tally {
  allowed: number;
  refused: number;
}

/** One call; resolves with whether its whole answer arrived (false once the hub is gone). */
async function call(hub: CliHub, tool: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${hub.url}/tools/${tool}/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ arguments: { text: "x" } }),
    });
    await res.text();
    return res.status;
  } catch {
    return undefined; // the hub was killed before the answer arrived
  }
}

/**
 * Keeps IN_FLIGHT calls going (every fourth one refused: `demo__other` is off) until
 * ANSWERS_BEFORE_KILL answers arrived, then SIGKILLs the hub in the same turn. Returns the calls
 * whose answers arrived before the kill.
 */
async function callUntilKilled(hub: CliHub): Promise<Tally> {
  const tally: Tally = { allowed: 0, refused: 0 };
  let killed = false;
  let sent = 0;
  const worker = async () => {
    while (!killed) {
      const tool = sent++ % 4 === 3 ? "demo__other" : "demo__echo";
      const status = await call(hub, tool);
      if (killed || status === undefined) return;
      if (status === 200) tally.allowed++;
      else {
        assertEquals(status, 403, `${tool} answered ${status}`);
        tally.refused++;
      }
      if (tally.allowed + tally.refused >= ANSWERS_BEFORE_KILL) {
        killed = true;
        hub.hub.child.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await hub.hub.child.status;
  return tally;
}

/** Every line of audit.log as an entry; a line that is not whole JSON fails the test. */
async function auditLines(dir: string): Promise<AuditEntry[]> {
  const text = await Deno.readTextFile(join(dir, "audit.log"));
  assert(text.endsWith("\n"), "audit.log ends with a whole line");
  return text.trimEnd().split("\n").map((line, i) => {
    try {
      return JSON.parse(line) as AuditEntry;
    } catch {
      throw new Error(`audit.log line ${i + 1} is broken: ${line.slice(0, 200)}`);
    }
  });
}

Deno.test("every call answered before a SIGKILL has its whole line in audit.log", async () => {
  const hub = await startCliHub({
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission: "auto", tools: { other: "off" } } } },
    tabs: { demo: [{ tabId: 7, url: "https://example.com/home", title: "Home" }] },
  });
  const answered: Tally = { allowed: 0, refused: 0 };
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1) await hub.restart();
      hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
      const tally = await callUntilKilled(hub);
      hub.ext = undefined; // its socket closed with the hub
      answered.allowed += tally.allowed;
      answered.refused += tally.refused;
      const entries = await auditLines(hub.dir);
      const allowed = entries.filter((e) => e.tool === "demo__echo" && e.success).length;
      const refused = entries.filter((e) =>
        e.tool === "demo__other" && !e.success && e.error?.code === "PERMISSION_OFF"
      ).length;
      // Calls answered by the hub whose answers were still on their way may be there too.
      assert(
        allowed >= answered.allowed && refused >= answered.refused,
        `round ${round}: ${answered.allowed} allowed and ${answered.refused} refused calls ` +
          `were answered, audit.log has ${allowed} and ${refused}`,
      );
    }
  } finally {
    await hub.close().catch(() => {});
  }
});
