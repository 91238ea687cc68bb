/// <reference lib="deno.ns" />
import { assertEquals, assertRejects } from "../../../tests/helpers/assert.ts";
import { createPanelClient, type PortLike, RECONNECT_MS } from "./panel_client.ts";
import { isCommandError } from "../shared/panel_messages.ts";
import {
  PACKAGE_TIMEOUT_MS,
  type PanelMessage,
  type PanelRequest,
  type PanelState,
  REPLY_TIMEOUT_MS,
  replyTimeoutMs,
} from "../shared/panel_messages.ts";

class FakePort implements PortLike {
  sent: PanelRequest[] = [];
  disconnected = false;
  #message: ((m: PanelMessage) => void)[] = [];
  #disconnect: (() => void)[] = [];
  postMessage(message: PanelRequest) {
    this.sent.push(message);
  }
  onMessage = { addListener: (l: (m: PanelMessage) => void) => this.#message.push(l) };
  onDisconnect = { addListener: (l: () => void) => this.#disconnect.push(l) };
  disconnect() {
    this.disconnected = true;
  }
  emit(message: PanelMessage) {
    this.#message.forEach((l) => l(message));
  }
  drop() {
    this.#disconnect.forEach((l) => l());
  }
}

const STATE: PanelState = {
  extensionVersion: "1.0.0",
  link: { state: "connected", port: 9515 },
  tabs: {},
  activity: [],
  confirmations: [],
  progress: [],
};

function setup() {
  const ports: FakePort[] = [];
  const states: PanelState[] = [];
  const lost: number[] = [];
  const client = createPanelClient(() => {
    const port = new FakePort();
    ports.push(port);
    return port;
  }, { onState: (s) => states.push(s), onPortLost: (ms) => lost.push(ms) });
  return { client, ports, states, lost };
}

Deno.test("panel client: state pushes reach onState", () => {
  const { client, ports, states } = setup();
  ports[0].emit({ type: "state", state: STATE });
  assertEquals(states, [STATE]);
  client.close();
  assertEquals(ports[0].disconnected, true);
});

Deno.test("panel client: each command gets its own requestId; replies settle the right one", async () => {
  const { client, ports } = setup();
  const first = client.send({ type: "setSkipPermissions", enabled: true });
  const second = client.send({ type: "reconnect" });
  assertEquals(ports[0].sent.map((r) => r.requestId), [1, 2]);
  assertEquals(ports[0].sent[0].command, { type: "setSkipPermissions", enabled: true });
  ports[0].emit({ type: "reply", requestId: 2, ok: false, error: "no hub" });
  ports[0].emit({ type: "reply", requestId: 1, ok: true });
  await first;
  await assertRejects(second, /no hub/);
  client.close();
});

Deno.test("panel client: a reply's result resolves the command; an error keeps the hub's code", async () => {
  const { client, ports } = setup();
  const search = client.send({ type: "searchPlugins", query: "notes" });
  const save = client.send({ type: "setPluginSettings", plugin: "x", settings: { n: 500 } });
  const result = { query: "notes", packages: [] };
  ports[0].emit({ type: "reply", requestId: 1, ok: true, result });
  ports[0].emit({
    type: "reply",
    requestId: 2,
    ok: false,
    error: 'Settings of "x": n: must be at most 100',
    code: "INVALID_SETTINGS",
  });
  assertEquals(await search, result);
  const error = await save.catch((e) => e);
  assertEquals(isCommandError(error), true);
  assertEquals([error.message, error.code], [
    'Settings of "x": n: must be at most 100',
    "INVALID_SETTINGS",
  ]);
  client.close();
});

Deno.test("panel client: package operations wait minutes for their reply, the rest 15 s", () => {
  assertEquals(replyTimeoutMs({ type: "reconnect" }), REPLY_TIMEOUT_MS);
  assertEquals(replyTimeoutMs({ type: "openFolder", path: "/x" }), REPLY_TIMEOUT_MS);
  assertEquals(replyTimeoutMs({ type: "installPlugin", name: "x" }), PACKAGE_TIMEOUT_MS + 10_000);
  assertEquals(replyTimeoutMs({ type: "searchPlugins" }), PACKAGE_TIMEOUT_MS + 10_000);
});

Deno.test("panel client: a lost port fails waiting requests and connects again", async () => {
  const { client, ports, lost } = setup();
  const waiting = client.send({ type: "reconnect" });
  ports[0].drop();
  await assertRejects(waiting, /restarted before answering/);
  assertEquals(lost, [RECONNECT_MS]);
  await assertRejects(client.send({ type: "reconnect" }), /Not connected to the extension/);
  await new Promise((r) => setTimeout(r, RECONNECT_MS + 50));
  assertEquals(ports.length, 2);
  const again = client.send({ type: "reconnect" });
  ports[1].emit({ type: "reply", requestId: ports[1].sent[0].requestId, ok: true });
  await again;
  client.close();
});

Deno.test("panel client: close stops reconnecting and fails what waits", async () => {
  const { client, ports } = setup();
  const waiting = client.send({ type: "reconnect" });
  client.close();
  await assertRejects(waiting, /panel closed/);
  ports[0].drop();
  await new Promise((r) => setTimeout(r, RECONNECT_MS + 50));
  assertEquals(ports.length, 1);
});
