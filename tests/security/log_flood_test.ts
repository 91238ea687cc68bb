/**
 * Security: a page cannot wipe `server.log` or flood the agent with plugin log lines. A fake
 * extension (as a hostile page in a plugin's tab would make the real one do) sends 200,000 log
 * entries of one plugin to a real hub whose `server.log` is nearly full of earlier history. The
 * hub keeps at most the rate limit's burst and refill of them (in `plugins.log`, in the ring and
 * as MCP `notifications/message`), says how many it dropped, and `server.log` keeps every earlier
 * line: nothing the page sent is written there except one short note.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { SERVER_LOG_MAX_BYTES } from "../../server/log/logger.ts";
import { PLUGIN_LOG_LIMITS } from "../../server/extension/plugin_log_limit.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { FakeExtension, type Json } from "../helpers/fake_extension.ts";
import { exists, runHub, startHub, tempConfigDir } from "../helpers/hub_process.ts";
import { connectMcp } from "../helpers/mcp_client.ts";
import { until } from "../helpers/until.ts";

const OLD_LINE = "2020-01-01T00:00:00.000Z INFO  an old line from an earlier run\n";
const FLOOD = 200_000;
const BATCH = 1_000; // the most one plugin.log message may carry

/** Fills server.log with earlier history up to 200 KB short of its limit; returns the lines. */
async function fillHistory(dir: string): Promise<number> {
  const count = Math.floor((SERVER_LOG_MAX_BYTES - 200_000) / OLD_LINE.length);
  await Deno.writeTextFile(join(dir, "server.log"), OLD_LINE.repeat(count), { mode: 0o600 });
  return count;
}

/** Sends FLOOD entries of plugin `x` from tab 7; resolves once the hub has handled them all. */
async function flood(ext: FakeExtension): Promise<void> {
  const entries = Array.from({ length: BATCH }, (_, i) => ({
    level: "info",
    message: `forged flood line ${i} ${"z".repeat(100)}`,
  }));
  for (let sent = 0; sent < FLOOD; sent += BATCH) {
    ext.notify("plugin.log", { plugin: "x", tabId: 7, entries });
    if (sent % 20_000 === 0) await ext.request("config.getState"); // keeps the socket moving
  }
  // Messages are handled in order: this answer comes after every entry above was.
  const reply = await ext.request("config.getState");
  assertEquals(reply.error, undefined);
}

const count = (text: string, part: string) => text.split(part).length - 1;

Deno.test("200,000 forged plugin log entries are bounded and server.log keeps its history", async () => {
  const dir = await tempConfigDir();
  const history = await fillHistory(dir);
  const hub = await startHub({ configDir: dir });
  let stopped = false;
  try {
    const ext = await FakeExtension.connect(hub.port, hub.secret);
    const mcp = await connectMcp(hub.url, hub.secret);
    const notes: Json[] = [];
    mcp.setNotificationHandler(LoggingMessageNotificationSchema, (n: Json) => void notes.push(n));
    // The session's notification stream opens a moment after connecting: wait for a probe.
    await until(
      () => {
        ext.notify("plugin.log", {
          plugin: "probe",
          tabId: 1,
          entries: [{ level: "info", message: "p" }],
        });
        return notes.length > 0;
      },
      "the MCP notification stream",
      10_000,
    );

    const started = performance.now();
    await flood(ext);
    const seconds = (performance.now() - started) / 1000;
    const { perTab } = PLUGIN_LOG_LIMITS;
    const bound = perTab.burst + Math.ceil((seconds + 1) * perTab.perSecond);
    // The drop line comes within DROP_REPORT_MS of the first drop, to the sessions too.
    const fromX = () => notes.filter((n) => n.params.logger === "plugin:x");
    const dropNote = (n: Json) => JSON.stringify(n.params.data).includes("hub: dropped ");
    await until(() => fromX().some(dropNote), "the drop line at the MCP client", 30_000);
    await mcp.close();
    await ext.close();
    assertEquals(await hub.stop(), 0, hub.output().slice(-2000));
    stopped = true;

    const forwarded = fromX().filter((n) => !dropNote(n)).length;
    assert(forwarded >= 1 && forwarded <= bound, `${forwarded} notifications (bound ${bound})`);

    const server = await Deno.readTextFile(join(dir, "server.log"));
    assertEquals(count(server, OLD_LINE), history, "every earlier line is still in server.log");
    assert(!(await exists(join(dir, "server.log.1"))), "server.log did not rotate");
    assertEquals(count(server, "forged flood line"), 0, "no plugin line in server.log");
    assert(
      /WARN {2}Plugin log lines over the rate limit were dropped since .*: [\d,]+ from plugin x /
        .test(server),
      server.slice(-2000),
    );

    const plugins = await Deno.readTextFile(join(dir, "plugins.log"));
    assert(plugins.length < SERVER_LOG_MAX_BYTES, `plugins.log: ${plugins.length} bytes`);
    const written = count(plugins, "[plugin:x] forged flood line");
    assert(written >= 1 && written <= bound, `${written} lines in plugins.log (bound ${bound})`);
    // Drops are reported every DROP_REPORT_MS, so a slow flood gives several lines: add them all.
    const dropLines = [
      ...plugins.matchAll(
        /\[plugin:x\] dropped ([\d,]+) log lines from plugin x in tab 7 in the last \d+ s \(limits: /g,
      ),
    ];
    assert(dropLines.length >= 1, plugins.slice(-2000));
    const dropped = dropLines.reduce((n, m) => n + Number(m[1].replaceAll(",", "")), 0);
    assertEquals(dropped, FLOOD - written, "every drop is counted");

    // `hub logs --plugin x` finds the plugin's lines and the drop line in plugins.log.
    const shown = await runHub(["logs", "--plugin", "x", "--lines", "1"], { configDir: dir });
    assertEquals(shown.code, 0, shown.stderr);
    assert(shown.stdout.includes("dropped "), shown.stdout);
  } finally {
    if (!stopped) await hub.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
