import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { Logger } from "../log/logger_interface.ts";
import { guardConnections } from "./conn_guard.ts";
import { FDS_PER_CONNECTION } from "./conn_cap.ts";
import { until } from "../../tests/helpers/until.ts";

function recordingLogger() {
  const lines: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  return { logger, lines };
}

async function get(port: number): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
  );
  let text = "";
  const buffer = new Uint8Array(4096);
  for (let n; (n = await conn.read(buffer)) !== null;) {
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  conn.close();
  return text;
}

/** One request on an open connection; the answer's text. */
async function request(conn: Deno.Conn): Promise<string> {
  await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  const buffer = new Uint8Array(4096);
  const n = await conn.read(buffer);
  return new TextDecoder().decode(buffer.subarray(0, n ?? 0));
}

Deno.test("accept errors (out of descriptors) are logged at most once a minute and the loop goes on", async () => {
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("ok"),
  );
  const real = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let failures = 5;
  const flaky = {
    accept: () =>
      failures-- > 0
        ? Promise.reject(
          Object.assign(new Error("Too many open files (os error 24)"), { code: "EMFILE" }),
        )
        : real.accept(),
    close: () => real.close(),
  } as unknown as Deno.Listener;
  const { logger, lines } = recordingLogger();
  const guard = guardConnections(flaky, {
    connectUpstream: () => Deno.connect({ hostname: "127.0.0.1", port: upstream.addr.port }),
    maxConnections: 8,
    headTimeoutMs: 10_000,
    maxWsMessageBytes: 1024,
    logger,
  });
  try {
    assertMatch(await get(real.addr.port), /^HTTP\/1\.1 200[\s\S]*ok$/, "after a burst");
    failures = 3; // a second burst, after the connection the loop is waiting for now
    const taken = await Deno.connect({ hostname: "127.0.0.1", port: real.addr.port });
    assertMatch(await get(real.addr.port), /^HTTP\/1\.1 200[\s\S]*ok$/, "after a second burst");
    taken.close();
    assert(failures < 0, "both bursts happened");
    assertEquals(lines.length, 2, `one warning and one recovery line in all:\n${lines.join("\n")}`);
    assertMatch(lines[0], /^warn Cannot accept a connection: Too many open files .*\(1 failed/);
    assertMatch(lines[1], /^info Accepting connections again \(5 failed attempts since/);
  } finally {
    await guard.stopAccepting();
    guard.closeAll();
    await upstream.shutdown();
  }
  assertEquals(guard.open, 0);
});

Deno.test("stopAccepting closes the port; closeAll ends connections that never sent a byte", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const guard = guardConnections(listener, {
    connectUpstream: () => Promise.reject(new Error("not used")),
    maxConnections: 8,
    headTimeoutMs: 10_000,
    maxWsMessageBytes: 1024,
    logger: recordingLogger().logger,
  });
  const idle = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  while (guard.open === 0) await new Promise((r) => setTimeout(r, 5));
  await guard.stopAccepting();
  guard.closeAll();
  assertEquals(await idle.read(new Uint8Array(16)), null, "closed by the guard");
  idle.close();
  assertEquals(guard.open, 0);
  const refused = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port }).then(
    (conn) => (conn.close(), false),
    () => true,
  );
  assert(refused, "nothing listens any more");
});

Deno.test("setMaxConnections: at a cap of 1, four silent connections fit and a fifth replaces the first; raised, all stay", async () => {
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("ok"),
  );
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const guard = guardConnections(listener, {
    connectUpstream: () => Deno.connect({ hostname: "127.0.0.1", port: upstream.addr.port }),
    maxConnections: 1,
    headTimeoutMs: 10_000,
    maxWsMessageBytes: 1024,
    logger: recordingLogger().logger,
  });
  const port = listener.addr.port;
  const opened: Deno.Conn[] = [];
  const open = async (count: number) => {
    opened.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    // Accepted (or, at the cap, having replaced another).
    await until(() => guard.open >= count, `${count} connections in the table`, 5_000);
  };
  try {
    // A silent connection holds one descriptor of the FDS_PER_CONNECTION a cap of 1 allows.
    for (let i = 1; i <= FDS_PER_CONNECTION; i++) await open(i);
    await open(FDS_PER_CONNECTION); // over: the first gives way
    assertEquals(await opened[0].read(new Uint8Array(16)), null, "the first was evicted");
    guard.setMaxConnections(FDS_PER_CONNECTION + 1);
    await open(FDS_PER_CONNECTION + 1);
    for (const conn of opened.slice(1)) {
      assertMatch(await request(conn), /^HTTP\/1\.1 200[\s\S]*ok$/, "not evicted: served");
    }
    assertEquals(guard.open, FDS_PER_CONNECTION + 1);
  } finally {
    for (const conn of opened) conn.close();
    await guard.stopAccepting();
    guard.closeAll();
    await upstream.shutdown();
  }
});

Deno.test("an idle flood accepted faster than reads complete never evicts a client that already sent its request", async () => {
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("ok"),
  );
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const guard = guardConnections(listener, {
    connectUpstream: () => Deno.connect({ hostname: "127.0.0.1", port: upstream.addr.port }),
    maxConnections: 2, // eight silent connections
    headTimeoutMs: 60_000,
    maxWsMessageBytes: 1024,
    logger: recordingLogger().logger,
  });
  const port = listener.addr.port;
  const flood: Deno.Conn[] = [];
  try {
    // The guard is paused by a timer the test holds up: the request and 300 idle connections
    // after it wait together in the system's queue, and `accept()` then answers at once for each.
    const blocker = Date.now() + 200;
    const real = await Deno.connect({ hostname: "127.0.0.1", port });
    const sent = real.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    for (let i = 0; i < 300; i++) flood.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    while (Date.now() < blocker) {
      // busy: the guard cannot read anything before the whole flood is queued
    }
    await sent;
    const answer = new Uint8Array(4096);
    const n = await real.read(answer);
    assertMatch(new TextDecoder().decode(answer.subarray(0, n ?? 0)), /^HTTP\/1\.1 200/);
    real.close();
  } finally {
    for (const conn of flood) conn.close();
    await guard.stopAccepting();
    guard.closeAll();
    await upstream.shutdown();
  }
});
