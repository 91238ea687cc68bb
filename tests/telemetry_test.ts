/**
 * End to end: telemetry of a real hub process (main.ts under the task's permission flags), sent to
 * a local receiver through HUB_TELEMETRY_ENDPOINT. The receiver gets the documented events and
 * nothing else (no arguments, URLs, titles, names, the secret or paths, after real tool calls with
 * distinctive values); every way of opting out sends nothing; debug mode prints and sends nothing;
 * a receiver that hangs or is down changes no call latency and the hub still stops promptly; and
 * `hub telemetry status|enable|disable` through the real CLI, with a disable that takes effect
 * in the running hub. No test here reaches the real endpoint.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { api, type ApiReply } from "./helpers/hub_api.ts";
import {
  freePort,
  ROOT,
  runHub,
  type RunningHub,
  spawnHub,
  startHub,
  tempConfigDir,
} from "./helpers/hub_process.ts";
import { FakeExtension } from "./helpers/fake_extension.ts";
import { writePluginFolder } from "./helpers/plugin_cli.ts";
import { waitUntil } from "./helpers/cli_tool_fixture.ts";
import { toolName } from "../protocol/call_contract.ts";

/** Values that must never leave the machine. */
const PLUGIN = "narwhalzq";
const TOOL = "lookup_quokka";
const ARGUMENT = "ARG-purple-heron-5821";
const TAB_URL = "https://intranet-8842.example.com/private/page";
const TAB_TITLE = "Title-umber-falcon-3307";

interface Received {
  method: string;
  path: string;
  contentType: string | null;
  text: string;
}

interface Receiver {
  url: string;
  requests: Received[];
  /** Requests accepted (also those never answered). */
  accepted(): number;
  close(): Promise<void>;
}

/** A local telemetry receiver: answers 204, or accepts and never answers (`hang`). */
function startReceiver(mode: "ok" | "hang" = "ok"): Receiver {
  const requests: Received[] = [];
  let accepted = 0;
  const release = Promise.withResolvers<void>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      accepted++;
      const text = await req.text();
      if (mode === "hang") {
        await release.promise;
        return new Response(null, { status: 503 });
      }
      const { pathname } = new URL(req.url);
      requests.push({
        method: req.method,
        path: pathname,
        contentType: req.headers.get("content-type"),
        text,
      });
      return new Response(null, { status: 204 });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1/events`,
    requests,
    accepted: () => accepted,
    async close() {
      release.resolve();
      await server.shutdown();
    },
  };
}

// deno-lint-ignore no-explicit-any
const eventsOf = (receiver: Receiver): any[] =>
  receiver.requests.flatMap((r) => JSON.parse(r.text).events);

/** Telemetry on, to `endpoint` (the helpers turn it off by default). */
const telemetryTo = (endpoint: string, extra: Record<string, string> = {}) => ({
  DO_NOT_TRACK: "",
  HUB_TELEMETRY_ENDPOINT: endpoint,
  ...extra,
});

interface Setup {
  dir: string;
  hub: RunningHub;
  ext: FakeExtension;
  call(args: unknown, tool?: string): Promise<ApiReply>;
  close(): Promise<number>;
}

/** A hub with one local plugin set to auto, and a fake extension with its tab open. */
async function startWithPlugin(
  env: Record<string, string>,
  config: Record<string, unknown> = {},
): Promise<Setup> {
  const dir = await tempConfigDir();
  const pluginDir = await writePluginFolder(join(dir, "plugins", PLUGIN), {
    name: PLUGIN,
    tools: [TOOL],
    hub: { urlPatterns: ["*://*.example.com/*"] },
  });
  await Deno.writeTextFile(
    join(dir, "config.json"),
    JSON.stringify({
      localPlugins: [pluginDir],
      permissions: { [PLUGIN]: { permission: "auto" } },
      ...config,
    }),
  );
  const hub = await startHub({ configDir: dir, env });
  const ext = await FakeExtension.connect(hub.port, hub.secret);
  await ext.waitFor((m) => m.method === "sync.full");
  await ext.setTabs(PLUGIN, [{ tabId: 5, url: TAB_URL, title: TAB_TITLE }]);
  return {
    dir,
    hub,
    ext,
    call: (args, tool = toolName(PLUGIN, TOOL)) =>
      api(hub, "POST", `/tools/${tool}/call`, { arguments: args }),
    async close() {
      await ext.close();
      const code = await hub.stop();
      await Deno.remove(dir, { recursive: true });
      return code;
    },
  };
}

/** The documented fields (docs/telemetry.md), by event. */
const ENVELOPE = ["event", "installationId", "time", "version"];
const FIELDS: Record<string, string[]> = {
  hub_started: [...ENVELOPE, "os", "arch", "runtime", "mode", "plugins"],
  usage: [...ENVELOPE, "periodMinutes", "calls"],
};

Deno.test("a local receiver gets the documented events and nothing else", async () => {
  const receiver = startReceiver();
  const s = await startWithPlugin(telemetryTo(receiver.url));
  let code: number | undefined;
  try {
    for (let i = 0; i < 3; i++) {
      const reply = await s.call({ text: `${ARGUMENT}-${i}` });
      assertEquals(reply.status, 200, JSON.stringify(reply.body));
    }
    const invalid = await s.call({ wrong: ARGUMENT });
    assertEquals(invalid.status >= 400, true);
    await waitUntil(() => eventsOf(receiver).length === 1, "hub_started at the receiver");
  } finally {
    code = await s.close();
  }
  assertEquals(code, 0);
  await receiver.close();

  const events = eventsOf(receiver);
  assertEquals(events.map((e) => e.event), ["hub_started", "usage"]);
  const docs = await Deno.readTextFile(join(ROOT, "docs", "telemetry.md"));
  for (const event of events) {
    assertEquals(Object.keys(event).sort(), [...FIELDS[event.event]].sort(), event.event);
    for (const key of Object.keys(event)) assert(docs.includes(`\`${key}\``), `${key} documented`);
  }
  const [started, usage] = events;
  assertMatch(started.installationId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-/);
  assertEquals(usage.installationId, started.installationId);
  assertEquals(started.plugins, { local: 1, npm: 0 });
  assertEquals([started.mode, started.runtime], ["production", `deno ${Deno.version.deno}`]);
  assertEquals(usage.calls.success, 3);
  assertEquals(usage.calls.failure, 1);
  assertEquals(usage.calls.byCategory, { validation: 1 });
  assertEquals(usage.calls.byKind, { plugin: 4 });
  for (const request of receiver.requests) {
    assertEquals([request.method, request.path], ["POST", "/v1/events"]);
    assertEquals(request.contentType, "application/json");
  }
  const sent = receiver.requests.map((r) => r.text).join("\n");
  const secret = s.hub.secret;
  for (const never of [ARGUMENT, PLUGIN, TOOL, "intranet-8842", TAB_TITLE, secret, s.dir, "/"]) {
    assert(!sent.includes(never), `the events hold "${never}":\n${sent}`);
  }
});

Deno.test("every way of opting out sends nothing; HUB_TELEMETRY_DISABLED=0 beats DO_NOT_TRACK", async () => {
  const cases: {
    label: string;
    env: Record<string, string>;
    config?: Record<string, unknown>;
    sends: boolean;
  }[] = [
    { label: "telemetry: false", env: {}, config: { telemetry: false }, sends: false },
    { label: "HUB_TELEMETRY_DISABLED=1", env: { HUB_TELEMETRY_DISABLED: "1" }, sends: false },
    { label: "DO_NOT_TRACK=1", env: { DO_NOT_TRACK: "1" }, sends: false },
    {
      label: "HUB_TELEMETRY_DISABLED=yes with DO_NOT_TRACK=1",
      env: { HUB_TELEMETRY_DISABLED: "yes", DO_NOT_TRACK: "1" },
      sends: false,
    },
    {
      label: "HUB_TELEMETRY_DISABLED=0 with DO_NOT_TRACK=1",
      env: { HUB_TELEMETRY_DISABLED: "0", DO_NOT_TRACK: "1" },
      sends: true,
    },
  ];
  for (const { label, env, config, sends } of cases) {
    const receiver = startReceiver();
    const s = await startWithPlugin(telemetryTo(receiver.url, env), config);
    assertEquals((await s.call({ text: ARGUMENT })).status, 200);
    if (sends) await waitUntil(() => eventsOf(receiver).length === 1, `${label}: hub_started`);
    assertEquals(await s.close(), 0, label);
    await receiver.close();
    // Stopping sends what waited, so a hub that would send has sent by now.
    const names = eventsOf(receiver).map((e) => e.event);
    assertEquals(names, sends ? ["hub_started", "usage"] : [], label);
  }
});

Deno.test("debug mode prints each event on stderr and sends nothing", async () => {
  const receiver = startReceiver();
  const dir = await tempConfigDir();
  const hub = spawnHub(["start", "--port", "0"], {
    configDir: dir,
    env: telemetryTo(receiver.url, { HUB_TELEMETRY_DEBUG: "1" }),
  });
  try {
    await hub.waitFor(/telemetry: \{"event":"hub_started"/, { stream: "stderr" });
    await hub.waitFor((text) => text.includes("listening on"), { stream: "stderr" });
  } finally {
    assertEquals(await hub.stop(), 0);
    await receiver.close();
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals(receiver.accepted(), 0);
  const lines = hub.stderr().split("\n").filter((l) => l.startsWith("telemetry: "));
  assertEquals(lines.length, 1, hub.stderr());
  assertEquals(JSON.parse(lines[0].slice("telemetry: ".length)).event, "hub_started");
  assert(!hub.stdout().includes("telemetry: {"), "events go to stderr only");
  // The first run says telemetry is on, what it collects, and how to turn it off.
  assertMatch(hub.stdout(), /Anonymous telemetry is on: hub version, OS, runtime, plugin and call/);
  assertMatch(hub.stdout(), /"hub telemetry disable" \(or set DO_NOT_TRACK=1\)/);
});

Deno.test("an endpoint override outside loopback is refused with one log line", async () => {
  const dir = await tempConfigDir();
  const hub = await startHub({
    configDir: dir,
    env: telemetryTo("https://example.com/collect"),
  });
  try {
    await waitUntil(() => hub.output().includes("is refused"), "the refusal line");
  } finally {
    assertEquals(await hub.stop(), 0);
    await Deno.remove(dir, { recursive: true });
  }
  // Log lines only: the first-run text's stdio entry names the variable among deno's flags.
  const lines = hub.output().split("\n").filter((l) =>
    /^\S+ (DEBUG|INFO|WARN|ERROR) /.test(l) && l.includes("HUB_TELEMETRY_ENDPOINT")
  );
  assertEquals(lines.length, 1, hub.output());
  assertMatch(lines[0], /may only reach loopback .* or telemetry\.tabhub\.dev/);
});

/** Median of `n` sequential calls, in ms, and how long the hub then takes to stop. */
async function measure(env: Record<string, string>, n: number, before?: () => Promise<void>) {
  const s = await startWithPlugin(env);
  const times: number[] = [];
  let stopMs = 0;
  try {
    await before?.();
    await s.call({ text: "warm up" });
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const reply = await s.call({ text: `call ${i}` });
      times.push(performance.now() - started);
      assertEquals(reply.status, 200);
    }
    // Calls were made, so the stop has a usage event to send.
    await s.ext.close();
    const started = performance.now();
    assertEquals(await s.hub.stop(), 0);
    stopMs = performance.now() - started;
  } finally {
    await s.close();
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n / 2)], stopMs };
}

Deno.test("a receiver that hangs or is down changes no call latency; the hub stops promptly", async () => {
  const N = 40;
  const off = await measure({ DO_NOT_TRACK: "1" }, N);
  const hanging = startReceiver("hang");
  let hang;
  try {
    const env = telemetryTo(hanging.url);
    // The hub_started request is accepted, and left unanswered while the calls run.
    hang = await measure(env, N, () => waitUntil(() => hanging.accepted() === 1, "a send"));
  } finally {
    await hanging.close();
  }
  // The first send fails at once; the calls run while it waits to try again.
  const pause = () => new Promise<void>((r) => setTimeout(r, 1_300));
  const down = await measure(telemetryTo(`http://127.0.0.1:${freePort()}/v1/events`), N, pause);
  console.log(
    `p50 of ${N} calls: off ${off.p50.toFixed(2)} ms, hanging receiver ${
      hang.p50.toFixed(2)
    } ms, ` +
      `receiver down ${down.p50.toFixed(2)} ms; stop: off ${off.stopMs.toFixed(0)} ms, ` +
      `hanging ${hang.stopMs.toFixed(0)} ms, down ${down.stopMs.toFixed(0)} ms`,
  );
  for (const [label, run] of [["hanging", hang], ["down", down]] as const) {
    assert(run.p50 <= off.p50 * 3 + 20, `${label}: p50 ${run.p50} ms vs ${off.p50} ms off`);
    assert(run.stopMs <= off.stopMs + 2_000, `${label}: stop ${run.stopMs} ms vs ${off.stopMs}`);
  }
});

Deno.test("hub telemetry status|enable|disable through the CLI; a disable counts at once", async () => {
  const receiver = startReceiver();
  const s = await startWithPlugin(telemetryTo(receiver.url));
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runHub(["telemetry", ...args], { configDir: s.dir, env: { DO_NOT_TRACK: "", ...env } });
  const configFile = join(s.dir, "config.json");
  let code: number | undefined;
  try {
    await waitUntil(() => eventsOf(receiver).length === 1, "hub_started at the receiver");
    const id = (await Deno.readTextFile(join(s.dir, "telemetry_id"))).trim();
    assertEquals(eventsOf(receiver)[0].installationId, id);

    const status = await cli([]);
    assertEquals(status.code, 0, status.stderr);
    assertMatch(status.stdout, /^Telemetry: enabled \(on by default\)/);
    assert(status.stdout.includes(`Installation id: ${id}`), status.stdout);
    assertMatch((await cli(["status"], { DO_NOT_TRACK: "1" })).stdout, /disabled \(DO_NOT_TRACK=1/);
    const yes = await cli(["status"], { HUB_TELEMETRY_DISABLED: "yes", DO_NOT_TRACK: "1" });
    assertMatch(yes.stdout, /^Telemetry: disabled \(HUB_TELEMETRY_DISABLED=yes is set\)\nNote: /);

    const disable = await cli(["disable"]);
    assertEquals(disable.code, 0, disable.stderr);
    assertMatch(disable.stdout, /Telemetry disabled \(telemetry: false in .*config\.json\)/);
    assertEquals(JSON.parse(await Deno.readTextFile(configFile)).telemetry, false);
    assertMatch((await cli(["status"])).stdout, /^Telemetry: disabled \(telemetry is false in/);

    const enable = await cli(["enable"], { DO_NOT_TRACK: "1" });
    assertEquals(enable.code, 0, enable.stderr);
    assertMatch(enable.stdout, /Telemetry enabled/);
    assertMatch(enable.stdout, /stays off .*DO_NOT_TRACK=1 is set/);
    assertEquals(JSON.parse(await Deno.readTextFile(configFile)).telemetry, true);

    // Calls made while telemetry is off are never reported, even when it is on again at stop.
    // The hub looks at the config at most once a second on the call path: the disable comes
    // within the second after a look, and the calls right after it must not count.
    const pause = () => new Promise((r) => setTimeout(r, 1_100));
    await pause();
    assertEquals((await s.call({ text: ARGUMENT })).status, 200); // the hub looks: on
    await setTelemetryFast(configFile, false); // what "hub telemetry disable" writes, at once
    for (let i = 0; i < 3; i++) assert((await s.call({ wrong: ARGUMENT })).status >= 400);
    await pause(); // the hub looks again: off, so the calls since its last look are dropped
    assertEquals((await cli(["enable"])).code, 0);
    await pause();
    assertEquals((await s.call({ text: ARGUMENT })).status, 200); // looks: on
    await pause();
    assertEquals((await s.call({ text: ARGUMENT })).status, 200); // looks: on; this one waits
    await pause(); // and a second later the hub looks again: on, so it is kept

    const wrong = await cli(["maybe"]);
    assertEquals(wrong.code, 1);
    assertMatch(wrong.stderr, /Unknown telemetry action "maybe".*status, enable, disable/);

    const reset = await runHub(["config", "reset", "--confirm"], {
      configDir: s.dir,
      env: { HUB_PORT: String(s.hub.port) },
    });
    assertEquals(reset.code, 0, reset.stderr);
    assertEquals((await Deno.readTextFile(join(s.dir, "telemetry_id"))).trim(), id, "kept");
  } finally {
    code = await s.close();
  }
  assertEquals(code, 0);
  await receiver.close();
  const events = eventsOf(receiver);
  assertEquals(events.map((e) => e.event), ["hub_started", "usage"]);
  // The three failures were made while off; the success before the disable came within the
  // same second, so it is left out with them. The two calls after the enable are reported; the
  // reset afterwards (telemetry on by default) changes nothing.
  assertEquals([events[1].calls.success, events[1].calls.failure], [2, 0]);
});

/** Writes `telemetry` into config.json as the config store does (a whole new file, renamed). */
async function setTelemetryFast(file: string, telemetry: boolean) {
  const config = JSON.parse(await Deno.readTextFile(file));
  await Deno.writeTextFile(`${file}.tmp`, JSON.stringify({ ...config, telemetry }, null, 2));
  await Deno.rename(`${file}.tmp`, file);
}

Deno.test("an upgrade is told too: the first start without an installation id shows the notice", async () => {
  const receiver = startReceiver();
  const dir = await tempConfigDir();
  try {
    // A config from a version without telemetry: config.json exists, telemetry_id does not.
    await Deno.writeTextFile(join(dir, "config.json"), "{}");
    const run = async () => {
      const hub = spawnHub(["start", "--port", "0"], {
        configDir: dir,
        env: telemetryTo(receiver.url),
      });
      try {
        await hub.waitFor((text) => text.includes("listening on"), { stream: "stderr" });
        await waitUntil(() => eventsOf(receiver).length > 0, "hub_started at the receiver");
      } finally {
        assertEquals(await hub.stop(), 0);
      }
      return hub;
    };
    const first = await run();
    assertMatch(first.stdout(), /Anonymous telemetry is on: hub version, OS, runtime/);
    assert(!first.stdout().includes("Welcome to hub"), "not a first run");
    const logged = first.stderr().split("\n").filter((l) => l.includes("Anonymous telemetry"));
    assertEquals(logged.length, 1, first.stderr());
    assertMatch(logged[0], /INFO|info/);
    receiver.requests.length = 0;
    const second = await run();
    const output = second.stdout() + second.stderr();
    assert(!output.includes("Anonymous telemetry"), output);
  } finally {
    await receiver.close();
    await Deno.remove(dir, { recursive: true });
  }
});
