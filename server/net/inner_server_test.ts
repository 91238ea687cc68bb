import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { silentLogger } from "../log/logger.ts";
import type { Endpoint, Served } from "./inner_endpoint.ts";
import { superviseServers } from "./inner_server.ts";

/** A server whose accept loop the test can end, and whose shutdown it can see. */
function fakeServer() {
  let fail!: (error: Error) => void;
  let done!: () => void;
  const finished = new Promise<void>((resolve, reject) => ((done = resolve), (fail = reject)));
  finished.catch(() => {});
  const state = { shutDown: false, unlinked: false, connects: 0 };
  const served: Served = {
    server: {
      finished,
      shutdown: () => {
        state.shutDown = true;
        done();
        return Promise.resolve();
      },
    } as unknown as Deno.HttpServer,
    connect: () => {
      state.connects++;
      return Promise.resolve({ close() {} } as unknown as Deno.Conn);
    },
    unlink: () => void (state.unlinked = true),
  };
  return { served, state, die: () => fail(new Error("Too many open files (os error 24)")) };
}

function fakeEndpoint(drainable: boolean) {
  const servers: ReturnType<typeof fakeServer>[] = [];
  const endpoint: Endpoint = {
    transport: drainable ? "unix" : "tcp",
    drainable,
    start(generation) {
      assertEquals(generation, servers.length, "each server gets the next number (a new socket)");
      servers.push(fakeServer());
      return servers.at(-1)!.served;
    },
  };
  return { endpoint, servers };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("unix socket: a server whose accept loop ended is replaced at once and drained", async () => {
  const { endpoint, servers } = fakeEndpoint(true);
  const inner = superviseServers(endpoint, silentLogger, () => {});
  const kept = await inner.connect(); // e.g. the extension's WebSocket
  servers[0].die();
  await tick();
  assertEquals(servers.length, 2, "a new server took over");
  assert(servers[0].state.unlinked, "the old socket file is removed");
  assert(!servers[0].state.shutDown, "the old server still serves the guard's connection");
  const fresh = await inner.connect();
  assertEquals(servers[1].state.connects, 1, "new connections go to the new server");
  kept.close();
  assert(servers[0].state.shutDown, "and it is shut down when its last connection ends");
  fresh.close();
  await inner.shutdown();
  assert(servers[1].state.shutDown);
});

Deno.test("loopback port: the old server is shut down at once, freeing what strangers hold", async () => {
  const { endpoint, servers } = fakeEndpoint(false);
  const inner = superviseServers(endpoint, silentLogger, () => {});
  const kept = await inner.connect();
  servers[0].die();
  await tick();
  assert(servers[0].state.shutDown, "shut down with its connections");
  assertEquals(servers.length, 2);
  kept.close();
  await inner.shutdown();
});

Deno.test("while no server can start, new connections wait for the replacement", async () => {
  const { endpoint, servers } = fakeEndpoint(false);
  let outOfDescriptors = false;
  const start = endpoint.start;
  endpoint.start = (n) => {
    if (outOfDescriptors) throw new Error("Too many open files (os error 24)");
    return start(n);
  };
  const inner = superviseServers(endpoint, silentLogger, () => {});
  outOfDescriptors = true;
  servers[0].die();
  await tick();
  assertEquals(servers.length, 1, "the replacement could not start yet");
  const waiting = inner.connect();
  outOfDescriptors = false; // the old server's shutdown gave descriptors back
  (await waiting).close();
  assertEquals(servers.length, 2);
  assertEquals(servers[1].state.connects, 1);
  await inner.shutdown();
});
