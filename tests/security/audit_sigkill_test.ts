/**
 * Security: an answered call is in `audit.log` even when the hub is killed at once afterwards.
 * A real hub and a fake extension answer a stream of calls over REST and `/mcp` (allowed ones,
 * ones the plugin answers with an error, and refused ones); the hub gets SIGKILL right after a
 * number of answers have arrived, while more calls are still on their way. After each kill, every
 * line is whole JSON and that round's new lines hold every call whose answer arrived: each call
 * the plugin answered with an error is found by its own id (the error's message), and the round's
 * allowed and refused calls are counted against its own new lines. Repeated over many short
 * rounds on one config dir: a writer that batched entries on a zero-delay timer lost lines here
 * in 5 of 5 runs.
 */
import { join } from "node:path";
import type { AuditEntry } from "../../protocol/audit.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { type CliHub, DEMO_PLUGIN, startCliHub } from "../helpers/cli_tool_fixture.ts";
import { type Client, connectMcp } from "../helpers/mcp_client.ts";

const ROUNDS = 16;
/** Calls running at once while the hub is killed (below the plugin's limit of 25 at once). */
const IN_FLIGHT = 24;
/** Every other one of them calls over `/mcp`. */
const overMcp = (worker: number) => worker % 2 === 1;
/** Answers that arrive before the kill, per round. */
const ANSWERS_BEFORE_KILL = 100;
/** The plugin answers an echo whose text starts with this with an error carrying the text. */
const MARK = "mark:";

interface Tally {
  allowed: number;
  refused: number;
  /** Ids of the calls the plugin answered with an error (each in its audit entry's message). */
  marked: string[];
  /** Answers that came over `/mcp`. */
  viaMcp: number;
}

type Answer = "ok" | "error" | "refused";

/** One REST call; resolves with how it was answered, or undefined once the hub is gone. */
async function restCall(hub: CliHub, tool: string, text: string): Promise<Answer | undefined> {
  try {
    const res = await fetch(`${hub.url}/tools/${tool}/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ arguments: { text } }),
    });
    const body = await res.text();
    if (res.status === 200) return "ok";
    if (res.status === 403) return "refused";
    assert(body.includes(text), `${tool} answered ${res.status}: ${body.slice(0, 300)}`);
    return "error";
  } catch {
    return undefined; // the hub was killed before the answer arrived
  }
}

/** One `/mcp` call; undefined once the hub is gone (a cut stream may never settle: the exit wins). */
async function mcpCall(
  hub: CliHub,
  client: Client,
  tool: string,
  text: string,
): Promise<Answer | undefined> {
  const exited = hub.hub.child.status.then(() => undefined);
  const result = await Promise.race([
    client.callTool({ name: tool, arguments: { text } }).catch(() => undefined),
    exited,
  ]);
  if (result === undefined) return undefined;
  const said = JSON.stringify(result.content);
  if (!result.isError) return "ok";
  if (said.includes("PERMISSION_OFF")) return "refused";
  assert(said.includes(text), `${tool} answered ${said.slice(0, 300)}`);
  return "error";
}

/**
 * Keeps IN_FLIGHT calls going (every fourth one refused: `demo__other` is off; every other echo
 * answered by the plugin with an error naming the call) until ANSWERS_BEFORE_KILL answers
 * arrived, then SIGKILLs the hub in the same turn. Returns the calls answered before the kill.
 */
async function callUntilKilled(hub: CliHub, client: Client, round: number): Promise<Tally> {
  const tally: Tally = { allowed: 0, refused: 0, marked: [], viaMcp: 0 };
  let killed = false;
  let sent = 0;
  const worker = async (w: number) => {
    while (!killed) {
      const n = sent++;
      const tool = n % 4 === 3 ? "demo__other" : "demo__echo";
      const text = n % 2 === 0 ? `${MARK}${round}-${n}` : `call-${round}-${n}`;
      const answer = overMcp(w)
        ? await mcpCall(hub, client, tool, text)
        : await restCall(hub, tool, text);
      if (killed || answer === undefined) return;
      if (overMcp(w)) tally.viaMcp++;
      if (tool === "demo__other") assertEquals(answer, "refused", `${tool} ${text}`);
      else assertEquals(answer, text.startsWith(MARK) ? "error" : "ok", `${tool} ${text}`);
      if (answer === "ok") tally.allowed++;
      else if (answer === "refused") tally.refused++;
      else tally.marked.push(text);
      if (tally.allowed + tally.refused + tally.marked.length >= ANSWERS_BEFORE_KILL) {
        killed = true;
        hub.hub.child.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, w) => worker(w)));
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

/** Checks one round's new lines against the calls answered in that round. */
function checkRound(round: number, tally: Tally, entries: AuditEntry[]) {
  const echo = entries.filter((e) => e.tool === "demo__echo");
  const marked = new Set(
    echo.filter((e) => e.error?.code === "CALL_MARK").map((e) => e.error!.message),
  );
  const missing = tally.marked.filter((id) => !marked.has(id));
  assertEquals(missing, [], `round ${round}: answered calls missing from audit.log`);
  const allowed = echo.filter((e) => e.success).length;
  const refused =
    entries.filter((e) =>
      e.tool === "demo__other" && !e.success && e.error?.code === "PERMISSION_OFF"
    ).length;
  // Calls answered by the hub whose answers were still on their way (at most one a worker) may be
  // there too, never fewer than were answered.
  const says = `round ${round}: ${tally.allowed} allowed and ${tally.refused} refused calls ` +
    `were answered, its new audit lines have ${allowed} and ${refused}`;
  assert(allowed >= tally.allowed && allowed <= tally.allowed + IN_FLIGHT, says);
  assert(refused >= tally.refused && refused <= tally.refused + IN_FLIGHT, says);
  assert(marked.size + allowed + refused === entries.length, `round ${round}: stray lines`);
}

Deno.test("every call answered before a SIGKILL has its whole line in audit.log", async () => {
  const hub = await startCliHub({
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission: "auto", tools: { other: "off" } } } },
    tabs: { demo: [{ tabId: 7, url: "https://example.com/home", title: "Home" }] },
  });
  let before = 0;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1) await hub.restart();
      hub.extension.onDispatch((p) => {
        const text = String((p.input as { text: string }).text);
        if (!text.startsWith(MARK)) return { ok: true, value: { said: text } };
        const error = {
          code: "CALL_MARK",
          message: text,
          category: "internal" as const,
          retryable: false,
        };
        return { ok: false as const, error };
      });
      const client = await connectMcp(hub.url, hub.secret);
      const tally = await callUntilKilled(hub, client, round);
      hub.ext = undefined; // its socket closed with the hub
      client.close().catch(() => {});
      assert(
        tally.marked.length > 0 && tally.allowed > 0 && tally.refused > 0 && tally.viaMcp > 0,
        `round ${round}: a mix was answered, over REST and /mcp: ${JSON.stringify(tally)}`,
      );
      const entries = await auditLines(hub.dir);
      checkRound(round, tally, entries.slice(before));
      before = entries.length;
    }
  } finally {
    await hub.close().catch(() => {});
  }
});
