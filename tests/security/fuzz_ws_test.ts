/**
 * Property-based fuzzing of `/ws` on a real hub (child process): a fake extension (real WebSocket,
 * right subprotocol and secret) sends arbitrary frames: random JSON and text, binary frames,
 * JSON-RPC with wrong types, responses to unknown ids, huge ids, batches, and every extension
 * method with mangled params. The hub never dies; the link either stays up or is closed with a
 * close code; no reply is a JSON-RPC internal error (-32603) or oversized; every request with a
 * usable id is answered; settings keys outside the plugin's schema are refused; and afterwards a
 * new extension connects and works. Change SEED here (and only here) to explore other inputs.
 */
import fc from "fast-check";
import {
  assertProperty,
  type FuzzHub,
  fuzzJson,
  fuzzKey,
  fuzzStep,
  FZ_SETTINGS,
  PROTO_KEYS,
  settingsMayPass,
  startFuzzHub,
  summarize,
} from "../helpers/fuzz_hub.ts";
import { jsonRpcProblem } from "../helpers/fuzz_oracles.ts";
import { FakeExtension, type ReceivedMessage } from "../helpers/fake_extension.ts";
import { EXTENSION_TO_HUB_METHODS } from "../../protocol/events.ts";
import { PERMISSIONS } from "../../protocol/permission.ts";

const SEED = 130_003;
const RUNS = 300;
/** How long a request may wait for its reply (config writes and reloads included). */
const REPLY_MS = 15_000;

const pluginName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("fz", "shut") },
  fc.constantFrom("browser", ...PROTO_KEYS),
  fc.string({ maxLength: 20 }),
);
const loose = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: arb as fc.Arbitrary<unknown> }, fc.jsonValue());
const permission = loose(fc.constantFrom(...PERMISSIONS));

const tab = fc.record({
  tabId: loose(fc.integer({ min: -1, max: 2 ** 31 })),
  url: loose(fc.webUrl()),
  title: loose(fc.string({ maxLength: 50 })),
  ready: loose(fc.boolean()),
}, { requiredKeys: [] });
const tabChange = fc.record({
  plugin: pluginName,
  state: loose(fc.constantFrom("closed", "unavailable", "ready")),
  tabs: fc.array(tab, { maxLength: 5 }),
}, { requiredKeys: [] });
const logEntry = fc.record({
  level: loose(fc.constantFrom("debug", "info", "warn", "error")),
  message: fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.integer({ min: 0, max: 200_000 }).map((n) => "m".repeat(n)),
  ),
  timestamp: fc.double(),
  data: fuzzJson({ bigString: 20_000 }),
}, { requiredKeys: ["message"] });

/** Params in roughly the right shape for each method (so they reach the handlers), or anything. */
const shapedParams: Record<string, fc.Arbitrary<unknown>> = {
  "tab.syncAll": fc.record({ plugins: fc.array(tabChange, { maxLength: 20 }) }),
  "tab.stateChanged": tabChange,
  "tool.progress": fc.record({
    dispatchId: loose(fc.string()),
    progress: loose(fc.double()),
    total: fc.double(),
    message: fc.string(),
  }, { requiredKeys: [] }),
  "plugin.log": fc.record({
    plugin: pluginName,
    entries: fc.oneof(
      fc.array(logEntry, { maxLength: 30 }),
      fc.constant(new Array(1001).fill({
        level: "info",
        message: "x",
      })),
    ),
  }),
  "config.setToolPermission": fc.record({
    plugin: pluginName,
    tool: fc.oneof(fc.constantFrom("tagged", "echo"), fuzzKey()),
    permission,
  }),
  "config.setPluginPermission": fc.record({ plugin: pluginName, permission }),
  "config.setSkipPermissions": fc.record({ enabled: loose(fc.boolean()) }),
  "config.setDebugger": fc.record({ mode: loose(fc.constantFrom("auto", "off")) }),
  "config.setPluginSettings": fc.record({
    plugin: pluginName,
    settings: fc.dictionary(fuzzKey(FZ_SETTINGS), fuzzJson({ bigString: 20_000 }), { maxKeys: 4 }),
  }),
  "confirmation.response": fc.record({
    id: loose(fc.string()),
    decision: loose(fc.constantFrom("allow", "deny")),
    alwaysAllow: fc.boolean(),
  }, { requiredKeys: [] }),
};

const METHODS = Object.keys(EXTENSION_TO_HUB_METHODS);
const methodCall = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...METHODS) },
  fc.string({ maxLength: 20 }),
  fc.jsonValue(),
).chain((method) =>
  fc.record({
    method: fc.constant(method),
    params: fc.oneof(
      { weight: 3, arbitrary: shapedParams[method as string] ?? fuzzJson() },
      fuzzJson(),
    ),
  })
);

const anyId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(null, 1.5, -0, 1e308, 2 ** 53 + 7, true, "", "i".repeat(200_000)),
  fc.constant({ a: 1 }),
);

/** A request, notification or response, with any id and now and then a wrong `jsonrpc`. */
const rpcMessage = fc.tuple(
  fc.constantFrom("request", "notification", "response", "error"),
  methodCall,
  anyId,
  fc.oneof({ weight: 8, arbitrary: fc.constant("2.0") }, fc.jsonValue()),
).map(([kind, call, id, jsonrpc]) => {
  if (kind === "request") return { jsonrpc, id, ...call };
  if (kind === "notification") return { jsonrpc, ...call };
  if (kind === "response") return { jsonrpc, id, result: call.params };
  return { jsonrpc, id, error: call.params };
});

/** Requests that change state, in their right shape with a plain id: they reach the handlers. */
const stateRequest = fc.tuple(
  fc.constantFrom(
    "config.setPluginSettings",
    "config.setPluginSettings",
    "config.setToolPermission",
    "config.setPluginPermission",
    "tab.stateChanged",
  ),
  fc.string({ minLength: 1, maxLength: 8 }),
).chain(([method, id]) =>
  shapedParams[method].map((params) => ({ jsonrpc: "2.0", id: `t-${id}`, method, params }))
);

type Frame = { text: string } | { binary: Uint8Array };

const frame: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 10, arbitrary: rpcMessage.map((m) => ({ text: JSON.stringify(m) })) },
  { weight: 4, arbitrary: stateRequest.map((m) => ({ text: JSON.stringify(m) })) },
  {
    weight: 2,
    arbitrary: fc.array(rpcMessage, { minLength: 1, maxLength: 4 })
      .map((m) => ({ text: JSON.stringify(m) })),
  },
  { weight: 2, arbitrary: fuzzJson().map((v) => ({ text: JSON.stringify(v) })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((binary) => ({ binary })) },
);

/** The id the hub must answer: the frame is one request with a string or finite number id. */
function answerableId(f: Frame): string | number | undefined {
  if (!("text" in f)) return undefined;
  let m: unknown;
  try {
    m = JSON.parse(f.text);
  } catch {
    return undefined;
  }
  if (typeof m !== "object" || m === null || Array.isArray(m)) return undefined;
  const { id, method, jsonrpc } = m as Record<string, unknown>;
  if (jsonrpc !== "2.0" || typeof method !== "string") return undefined;
  const usable = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  return usable ? id as string | number : undefined;
}

/** A fake extension that keeps every message it got, and reconnects when the hub closed it. */
class Link {
  ext!: FakeExtension;
  messages: ReceivedMessage[] = [];
  closeCode: number | undefined;

  constructor(readonly fz: FuzzHub) {}

  async open(): Promise<void> {
    this.ext = await FakeExtension.connect(this.fz.hub.port, this.fz.hub.secret);
    this.closeCode = undefined;
    this.ext.onMessage((m) => this.messages.push(m));
    void this.ext.closed.then((e) => (this.closeCode = e.code));
    await this.ext.waitFor((m) => m.method === "sync.full");
  }

  get open_(): boolean {
    return this.ext.socket.readyState === WebSocket.OPEN;
  }

  /** The reply with this id, or undefined when the link closed or REPLY_MS passed. */
  async reply(id: string | number): Promise<ReceivedMessage | undefined> {
    const deadline = Date.now() + REPLY_MS;
    while (Date.now() < deadline && this.closeCode === undefined) {
      const found = this.messages.find((m) => m.method === undefined && m.id === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    return undefined;
  }
}

let sentinel = 0;

async function sendFrame(link: Link, f: Frame): Promise<string | undefined> {
  if (!link.open_) await link.open();
  link.messages = [];
  if ("text" in f) link.ext.sendRaw(f.text);
  else link.ext.socket.send(f.binary);
  // A request after the frame: its answer means the hub got past the frame.
  const id = answerableId(f);
  const probeId = `sentinel-${++sentinel}`;
  if (link.open_) {
    link.ext.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: probeId, method: "config.getState" }));
  }
  const probeReply = await link.reply(probeId);
  const reply = id === undefined ? undefined : await link.reply(id);
  if (link.closeCode !== undefined) {
    return link.closeCode === 1006
      ? "the hub dropped the link without a close frame (1006)"
      : undefined;
  }
  if (!probeReply) return "the link stayed open but a config.getState after the frame got no reply";
  for (const m of link.messages) {
    const problem = jsonRpcProblem("reply", m);
    if (problem) return problem;
  }
  if (id !== undefined && !reply) return `request id ${summarize(id, 80)} got no reply`;
  if (reply && "result" in reply) return settingsProblem(f, reply);
  return undefined;
}

/** `config.setPluginSettings` may only succeed for `fz` with its own fields. */
function settingsProblem(f: Frame, reply: ReceivedMessage): string | undefined {
  const m = JSON.parse((f as { text: string }).text);
  if (m.method !== "config.setPluginSettings") return undefined;
  if (settingsMayPass(m.params?.plugin, m.params?.settings)) return undefined;
  return `config.setPluginSettings accepted ${summarize(m.params, 300)}: ` +
    summarize(reply.result, 300);
}

/** A fresh extension connects, gets `sync.full`, and its request is answered. */
async function legitimateClientWorks(fz: FuzzHub): Promise<void> {
  const ext = await FakeExtension.connect(fz.hub.port, fz.hub.secret);
  try {
    await ext.waitFor((m) => m.method === "sync.full");
    const reply = await ext.request("config.getState");
    if (!reply.result) throw new Error(`config.getState after the fuzz: ${summarize(reply)}`);
  } finally {
    await ext.close();
  }
}

Deno.test("fuzz: /ws frames never kill the hub or break the link for the next client", async (t) => {
  console.log(`fuzz_ws seed ${SEED}`);
  const fz = await startFuzzHub();
  const link = new Link(fz);
  try {
    await link.open();
    await t.step(
      "arbitrary frames from an authenticated extension",
      () =>
        fuzzStep(fz, "/ws frames", async () => {
          try {
            await assertProperty(
              "/ws frames",
              fc.asyncProperty(frame, async (f) => {
                const problem = await sendFrame(link, f);
                if (problem) throw new Error(problem);
              }),
              { seed: SEED, numRuns: RUNS },
            );
          } finally {
            await link.ext.close();
          }
          await legitimateClientWorks(fz);
        }),
    );
  } finally {
    await fz.close();
  }
});
