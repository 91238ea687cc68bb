/// <reference lib="deno.ns" />
/**
 * createConnection against a real Deno WebSocket server standing in for the hub, with the
 * extension's server.json / auth.json served by a small file server that `chrome.runtime.getURL`
 * points at. The timer functions are wrapped to record the retry delays the connection asks for
 * and to check that it leaves no timer running.
 */
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { BACKOFF_MS, type Connection, createConnection, type LinkStatus } from "./connection.ts";
import { CLOSE_REPLACED, CLOSE_SECRET_ROTATED } from "../../../protocol/rpc.ts";
import { CHALLENGE_PATH, challengeProof } from "../../../protocol/challenge.ts";
import type { RpcPeer, ServerHandlers } from "./rpc_peer.ts";

const SECRET_A = "a".repeat(64);
const SECRET_B = "b1".repeat(32);
const realSetTimeout = globalThis.setTimeout;

function sleep(ms: number) {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}

/** Polls until `check` returns something truthy (generous limit; never a timing assertion). */
async function until<T>(what: string, check: () => T | undefined | false, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = check();
    if (value) return value;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

// ---- the stand-in hub ----

interface HubSide {
  port: number;
  /** Subprotocols each upgrade request offered, in order. */
  offers: string[][];
  /** Secrets the hub accepts; others get 401 before the upgrade. */
  accepted: Set<string>;
  /** The secret it proves at `/auth/challenge` (what it knows; `accepted` is what opens `/ws`). */
  knows: string;
  /**
   * How it answers `/auth/challenge`: as a hub, with a claim to have no secret (409 NO_SECRET),
   * or by relaying to a hub that listens on another port (both a squatter's tricks).
   */
  challenge: "hub" | "no-secret" | "relay";
  /** Requests to `/auth/challenge` so far. */
  challenges: number;
  sockets: WebSocket[];
  /** Text frames received per socket index. */
  frames: Map<number, unknown[]>;
  /** The newest open socket. */
  latest(): WebSocket | undefined;
  stop(): Promise<void>;
}

function startHub(secret: string): HubSide {
  const hub: HubSide = {
    port: 0,
    stop: () => Promise.resolve(),
    offers: [],
    accepted: new Set([secret]),
    knows: secret,
    challenge: "hub",
    challenges: 0,
    sockets: [],
    frames: new Map(),
    latest() {
      return this.sockets.findLast((s) => s.readyState === WebSocket.OPEN);
    },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === CHALLENGE_PATH) {
      hub.challenges++;
      if (hub.challenge === "no-secret") {
        return Response.json({ error: { code: "NO_SECRET" } }, { status: 409 });
      }
      const port = hub.port + (hub.challenge === "relay" ? 1 : 0);
      const nonce = url.searchParams.get("nonce")!;
      return Response.json({ proof: await challengeProof(hub.knows, nonce, port) });
    }
    if (url.pathname !== "/ws") return new Response("not found", { status: 404 });
    const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) =>
      p.trim()
    );
    hub.offers.push(offered);
    if (offered[0] !== "hub" || !hub.accepted.has(offered[1])) {
      return new Response("bad secret", { status: 401 });
    }
    const { socket, response } = Deno.upgradeWebSocket(req, { protocol: "hub" });
    const index = hub.sockets.length;
    hub.sockets.push(socket);
    hub.frames.set(index, []);
    socket.onmessage = (event) => hub.frames.get(index)!.push(JSON.parse(event.data));
    return response;
  });
  hub.port = server.addr.port;
  hub.stop = async () => {
    for (const s of hub.sockets) if (s.readyState === WebSocket.OPEN) s.close();
    await server.shutdown();
  };
  return hub;
}

// ---- the extension's own files (server.json, auth.json) ----

interface FileServer {
  port: number;
  /** Path → body; a missing key is a 404. */
  files: Map<string, string>;
  stop(): Promise<void>;
}

function startFiles(): FileServer {
  const files = new Map<string, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const body = files.get(new URL(req.url).pathname.slice(1));
    return body === undefined
      ? new Response("missing", { status: 404 })
      : new Response(body, { headers: { "content-type": "application/json" } });
  });
  return { port: server.addr.port, files, stop: () => server.shutdown() };
}

// ---- the harness ----

/**
 * Replaces the global timer functions for the connection: every setTimeout delay is recorded,
 * live timers and intervals are counted, and with `manual` a setTimeout is only queued (the test
 * runs it with `fireRetry`). The harness itself waits with the real functions.
 */
function installClock(manual: boolean) {
  const real = {
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval,
    clearInterval: globalThis.clearInterval,
  };
  const delays: number[] = [];
  const queued: (() => void)[] = [];
  const live = new Set<unknown>();
  globalThis.setTimeout = ((fn: () => void, delay?: number) => {
    delays.push(delay ?? 0);
    if (manual) {
      queued.push(fn);
      return -1;
    }
    const id: unknown = real.setTimeout(() => {
      live.delete(id);
      fn();
    }, delay);
    live.add(id);
    return id;
  }) as typeof setTimeout;
  globalThis.setInterval = ((fn: () => void, delay?: number) => {
    const id: unknown = real.setInterval(fn, delay);
    live.add(id);
    return id;
  }) as typeof setInterval;
  const clear = ((id?: unknown) => {
    if (id === undefined || id === -1) return;
    live.delete(id);
    real.clearTimeout(id as number);
  }) as typeof clearTimeout;
  globalThis.clearTimeout = clear;
  globalThis.clearInterval = clear;
  return {
    delays,
    live: () => live.size,
    fireRetry() {
      const fn = queued.pop();
      assert(fn, "no retry was scheduled");
      queued.length = 0;
      fn();
    },
    restore() {
      Object.assign(globalThis, real);
    },
  };
}

interface Harness {
  hub: HubSide;
  files: FileServer;
  connection: Connection;
  statuses: LinkStatus[];
  connected: RpcPeer[];
  /** Every delay passed to setTimeout while the test ran. */
  delays: number[];
  /** Manual clock only: run the retry the connection scheduled last. */
  fireRetry(): void;
  setAuth(secret: string): void;
}

/**
 * Sets up the hub, the file server, `globalThis.chrome` and a connection, runs `body`, then
 * restores everything; the cleanup stops the connection with `close()`, which must leave no timer
 * running.
 * With `manualClock`, setTimeout calls are recorded but not run (the test fires them).
 */
async function withConnection(
  options: { manualClock?: boolean; handlers?: ServerHandlers },
  body: (h: Harness) => Promise<void>,
) {
  const hub = startHub(SECRET_A);
  const files = startFiles();
  files.files.set("server.json", JSON.stringify({ port: hub.port }));
  files.files.set("auth.json", JSON.stringify({ secret: SECRET_A }));
  const hadChrome = Object.hasOwn(globalThis, "chrome");
  const previousChrome = Reflect.get(globalThis, "chrome");
  Reflect.set(globalThis, "chrome", {
    runtime: { getURL: (path: string) => `http://127.0.0.1:${files.port}/${path}` },
  });
  const clock = installClock(options.manualClock ?? false);
  const statuses: LinkStatus[] = [];
  const connected: RpcPeer[] = [];
  const connection = createConnection(options.handlers ?? {}, {
    onConnected: (peer) => void connected.push(peer),
    onStatus: (status) => void statuses.push(status),
  });
  let passed = false;
  try {
    await body({
      hub,
      files,
      connection,
      statuses,
      connected,
      delays: clock.delays,
      fireRetry: clock.fireRetry,
      setAuth: (secret) => files.files.set("auth.json", JSON.stringify({ secret })),
    });
    passed = true;
  } finally {
    connection.close();
    await sleep(50); // let the socket finish closing
    clock.restore();
    await hub.stop();
    await files.stop();
    if (hadChrome) Reflect.set(globalThis, "chrome", previousChrome);
    else Reflect.deleteProperty(globalThis, "chrome");
  }
  // Deno 2.9's sanitizers do not report leaked timers, so the harness counts them itself.
  if (passed) assertEquals(clock.live(), 0, "the connection left timers running");
}

const states = (statuses: LinkStatus[]) => statuses.map((s) => s.state);

Deno.test("it dials with the subprotocols hub + secret and reports connecting → connected", async () => {
  await withConnection({}, async (h) => {
    h.connection.ensure();
    h.connection.ensure(); // a second call while connecting does not dial twice
    await until("connected", () => h.connected.length === 1);
    assertEquals(h.hub.offers, [["hub", SECRET_A]]);
    assertEquals(states(h.statuses), ["connecting", "connected"]);
    const status = h.connection.status();
    assertEquals(status.state, "connected");
    assertEquals(status.port, h.hub.port);
    assertEquals(typeof status.connectedAt, "number");
    assertEquals(h.connection.peer(), h.connected[0]);
    h.connection.ensure(); // connected: nothing happens
    await sleep(50);
    assertEquals(h.hub.offers.length, 1);
  });
});

Deno.test("the peer of the link carries requests and notifications both ways", async () => {
  const handlers: ServerHandlers = { "plugin.uninstall": ({ plugin }) => ({ ok: plugin === "x" }) };
  await withConnection({ handlers }, async (h) => {
    h.connection.ensure();
    const [peer] = await until("connected", () => h.connected.length === 1 && h.connected);
    peer.notify("tool.progress", { dispatchId: "d", progress: 1 });
    h.hub.latest()!.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "plugin.uninstall",
        params: { plugin: "x" },
      }),
    );
    const frames = await until(
      "two frames",
      () => h.hub.frames.get(0)!.length >= 2 && h.hub.frames.get(0)!,
    );
    assertEquals(frames, [
      { jsonrpc: "2.0", method: "tool.progress", params: { dispatchId: "d", progress: 1 } },
      { jsonrpc: "2.0", id: 5, result: { ok: true } },
    ]);
  });
});

Deno.test("after the hub closes the link: disconnected with the reason, then it reconnects after 1 s", async () => {
  await withConnection({}, async (h) => {
    h.connection.ensure();
    const [peer] = await until("connected", () => h.connected.length === 1 && h.connected);
    const pending = peer.request("config.getState", {});
    const outcome = pending.then(() => "resolved", (error: Error) => error.message);
    await until("the request to arrive", () => h.hub.frames.get(0)!.length === 1);
    const closedAt = Date.now();
    h.hub.latest()!.close(1000, "hub shutting down");
    await until("disconnected", () => h.connection.status().state === "disconnected");
    assertEquals(h.connection.status().lastError, "hub shutting down");
    assertEquals(h.connection.peer(), undefined);
    assertEquals(await outcome, "The connection to the hub closed");
    assertEquals(h.delays, [BACKOFF_MS[0]]); // the first retry waits 1 s

    // Nobody calls ensure(): the connection comes back by itself.
    await until("reconnected", () => h.connected.length === 2);
    assert(Date.now() - closedAt >= 900, "the retry did not wait for the backoff");
    assertEquals(states(h.statuses), [
      "connecting",
      "connected",
      "disconnected",
      "connecting",
      "connected",
    ]);
    assertEquals(h.hub.offers, [["hub", SECRET_A], ["hub", SECRET_A]]);
    assertEquals(h.connection.peer(), h.connected[1]);
    assert(h.connected[1] !== peer, "a new link gets a new peer");
  });
});

Deno.test("close code 4001 reconnects at once and reads the new secret from auth.json", async () => {
  await withConnection({}, async (h) => {
    h.connection.ensure();
    await until("connected", () => h.connected.length === 1);
    // The hub rotates the secret: auth.json gets the new one, the old one stops working.
    h.setAuth(SECRET_B);
    h.hub.knows = SECRET_B;
    h.hub.accepted.clear();
    h.hub.accepted.add(SECRET_B);
    const before = h.delays.length;
    h.hub.latest()!.close(CLOSE_SECRET_ROTATED, "secret rotated");
    await until("reconnected", () => h.connected.length === 2);
    assertEquals(h.delays.slice(before), [0]);
    assertEquals(h.hub.offers, [["hub", SECRET_A], ["hub", SECRET_B]]);
    assertEquals(h.connection.status().state, "connected");
  });
});

Deno.test("close code 4000 (replaced by another browser) waits for takeOver()", async () => {
  await withConnection({}, async (h) => {
    h.connection.ensure();
    await until("connected", () => h.connected.length === 1);
    const before = h.delays.length;
    h.hub.latest()!.close(CLOSE_REPLACED, "another extension connected");
    await until("disconnected", () => h.connection.status().state === "disconnected");
    const status = h.connection.status();
    assertEquals(status.replaced, true);
    assertMatch(status.lastError!, /another browser profile.*Connect this browser/);
    await sleep(1_500);
    assertEquals(h.delays.length, before);
    // The alarm's ensure() does not take the link back either: only the user does.
    h.connection.ensure();
    await sleep(200);
    assertEquals(h.hub.offers.length, 1);
    h.connection.takeOver();
    await until("reconnected", () => h.connected.length === 2);
    assertEquals(h.connection.status().replaced, undefined);
  });
});

Deno.test("bad hub files give a disconnected status that says what is wrong, with backoff", async () => {
  await withConnection({ manualClock: true }, async (h) => {
    const failure = async (n: number) => {
      await until(
        `failure ${n}`,
        () => h.statuses.filter((s) => s.state === "disconnected").length === n,
      );
      return h.connection.status();
    };

    h.files.files.set("auth.json", "{not json");
    h.connection.ensure();
    const notJson = await failure(1);
    assertEquals(notJson.state, "disconnected");
    assertEquals(notJson.lastError, "auth.json is not valid JSON");

    h.setAuth("short");
    h.fireRetry();
    assertMatch((await failure(2)).lastError!, /auth\.json has no valid "secret"; run "hub start"/);

    h.files.files.delete("auth.json");
    h.fireRetry();
    assertMatch((await failure(3)).lastError!, /auth\.json is missing \(HTTP 404\)/);

    h.setAuth(SECRET_A);
    h.files.files.set("server.json", JSON.stringify({ port: "8080" }));
    h.fireRetry();
    assertMatch((await failure(4)).lastError!, /server\.json has no valid "port"/);

    // 1 s, 2 s, then 3 s, 3 s: the backoff grows and stays capped.
    assertEquals(h.delays, [1_000, 2_000, 3_000, 3_000]);
    assertEquals(h.hub.offers, [], "nothing was dialled with bad files");
    // While connecting, the last error stays visible.
    assert(h.statuses.filter((s) => s.state === "connecting").slice(1).every((s) => s.lastError));

    // Good files: the next retry connects, and the backoff starts again from 1 s.
    h.files.files.set("server.json", JSON.stringify({ port: h.hub.port }));
    h.fireRetry();
    await until("connected", () => h.connected.length === 1);
    assertEquals(h.connection.status().lastError, undefined);
    h.hub.latest()!.close(1000, "bye");
    await until("disconnected", () => h.connection.status().state === "disconnected");
    assertEquals(h.delays.at(-1), 1_000);
  });
});

Deno.test("a hub that is not listening is 'not reachable' and retried", async () => {
  await withConnection({ manualClock: true }, async (h) => {
    // A port with nothing on it: bind one, then free it.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const deadPort = (listener.addr as Deno.NetAddr).port;
    listener.close();
    h.files.files.set("server.json", JSON.stringify({ port: deadPort }));
    h.connection.ensure();
    await until("disconnected", () => h.statuses.some((s) => s.state === "disconnected"));
    const status = h.connection.status();
    assertEquals(status.state, "disconnected");
    assertEquals(status.lastError, `hub not reachable: nothing answers on 127.0.0.1:${deadPort}`);
    assertEquals(h.delays, [1_000]);
    // The hub comes back on its port: the scheduled retry finds it.
    h.files.files.set("server.json", JSON.stringify({ port: h.hub.port }));
    h.fireRetry();
    await until("connected", () => h.connected.length === 1);
  });
});

Deno.test("a refused secret (401 on upgrade) is a disconnected status, retried with backoff", async () => {
  await withConnection({ manualClock: true }, async (h) => {
    // It proves the secret but refuses the upgrade.
    h.hub.accepted.clear();
    h.connection.ensure();
    await until("disconnected", () => h.statuses.some((s) => s.state === "disconnected"));
    assertEquals(h.hub.offers, [["hub", SECRET_A]]);
    assertMatch(h.connection.status().lastError ?? "", /^(hub not reachable|closed \(0\))$/);
    assertEquals(h.delays, [1_000]);
    h.hub.accepted.add(SECRET_A);
    h.fireRetry();
    await until("connected", () => h.connected.length === 1);
  });
});

Deno.test("a process that does not prove the secret is never dialled at all, and is retried", async () => {
  // "no secret": it answers 409 NO_SECRET, so that a client would dial it without the secret.
  for (const trick of ["wrong secret", "relay", "no secret"] as const) {
    await withConnection({ manualClock: true }, async (h) => {
      if (trick === "relay") h.hub.challenge = "relay";
      else if (trick === "no secret") h.hub.challenge = "no-secret";
      else h.hub.knows = SECRET_B; // it proves another secret
      h.connection.ensure();
      for (let n = 1; n <= 3; n++) {
        await until(`failure ${n}`, () => h.statuses.filter((s) => s.unproven).length === n);
        if (n < 3) h.fireRetry();
      }
      assertEquals(h.hub.challenges, 3, trick);
      assertEquals(h.hub.offers, [], `${trick}: no WebSocket attempt at all`);
      const status = h.connection.status();
      assertEquals(status.state, "disconnected");
      assertEquals(status.unproven, true);
      assertMatch(
        status.lastError!,
        new RegExp(`^another program is on port ${h.hub.port}: it did not prove it knows`),
      );
      if (trick === "no secret") assertMatch(status.lastError!, /claims to have no secret/);
      assertEquals(h.delays, [1_000, 2_000, 3_000]);
      // The real hub comes back: the next retry proves it and connects.
      h.hub.challenge = "hub";
      h.hub.knows = SECRET_A;
      h.fireRetry();
      await until("connected", () => h.connected.length === 1);
      assertEquals(h.hub.offers, [["hub", SECRET_A]]);
    });
  }
});

Deno.test("close() ends the link and stops retrying until the next ensure()", async () => {
  await withConnection({}, async (h) => {
    h.connection.ensure();
    await until("connected", () => h.connected.length === 1);
    h.connection.close();
    assertEquals(h.connection.status().state, "disconnected");
    assertEquals(h.connection.peer(), undefined);
    await sleep(1_300); // longer than the first retry delay
    assertEquals(h.hub.offers.length, 1, "it must not redial after close()");
    h.connection.ensure();
    await until("connected again", () => h.connected.length === 2);
  });
});
