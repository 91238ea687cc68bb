/**
 * A `/ws` client that declares an oversized WebSocket message is cut off from the frame header,
 * before the hub buffers any of it: one frame declaring 50 MB, and a message fragmented into
 * frames whose running total passes the 10 MB limit. Memory is measured on a hub in its own
 * process: `deno test --parallel` runs test files on threads of one process, so this process's
 * RSS also counts whatever the other files do.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { startHub, withTempDir } from "../helpers/hub_process.ts";
import { serveInProcessHub } from "../helpers/in_process_hub.ts";
import { FakeExtension } from "../helpers/fake_extension.ts";
import { closedWithin, closeQuietly } from "../helpers/raw_http.ts";
import { MAX_FRAME_BYTES } from "../../protocol/rpc.ts";
import { rssMb } from "../helpers/fuzz_hub.ts";

const MB = 1024 * 1024;

/** Opens a raw TCP connection and completes a valid `/ws` upgrade with the secret. */
async function upgradedSocket(port: number, secret: string): Promise<Deno.Conn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = [
    "GET /ws HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Version: 13",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    `Sec-WebSocket-Protocol: hub, ${secret}`,
  ].join("\r\n") + "\r\n\r\n";
  await conn.write(new TextEncoder().encode(head));
  let answer = "";
  const buffer = new Uint8Array(4096);
  while (!answer.includes("\r\n\r\n")) {
    const n = await conn.read(buffer);
    if (n === null) throw new Error(`closed during the upgrade: ${answer}`);
    answer += new TextDecoder().decode(buffer.subarray(0, n));
  }
  assert(answer.startsWith("HTTP/1.1 101"), `upgrade refused: ${answer.slice(0, 200)}`);
  return conn;
}

/** A masked client frame header (zero mask, so the payload can be sent as is). */
function frameHeader(opcode: number, length: number, fin: boolean): Uint8Array {
  const bytes = [(fin ? 0x80 : 0) | opcode, 0x80 | 127];
  for (let i = 7; i >= 0; i--) bytes.push(Math.floor(length / 2 ** (8 * i)) % 256);
  return new Uint8Array([...bytes, 0, 0, 0, 0]);
}

/** Sends a frame payload in pieces; returns how many bytes were written before the close. */
async function sendPayload(conn: Deno.Conn, length: number): Promise<number> {
  const piece = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  try {
    while (sent < length) {
      sent += await conn.write(piece.subarray(0, Math.min(piece.length, length - sent)));
    }
  } catch {
    // closed by the server
  }
  return sent;
}

/**
 * A frame header declaring 50 MB closes the connection at once; the same again with the payload
 * pushed behind the header: the hub does not take it in.
 */
async function assertRefuses50MbFrames(port: number, secret: string): Promise<void> {
  const conn = await upgradedSocket(port, secret);
  await conn.write(frameHeader(0x1, 50 * MB, true));
  assert(
    await closedWithin(conn, 10_000),
    "the hub closed the connection after the 14-byte header",
  );
  const pushing = await upgradedSocket(port, secret);
  await pushing.write(frameHeader(0x2, 50 * MB, true));
  const sent = await sendPayload(pushing, 50 * MB);
  closeQuietly(pushing);
  assert(sent < 50 * MB, `the hub took all ${sent} bytes of the payload`);
}

Deno.test("a /ws frame declaring 50 MB closes the connection from its header, before its payload", async () => {
  await withTempDir(async (dir) => {
    const hub = await serveInProcessHub(dir);
    try {
      await assertRefuses50MbFrames(hub.port, hub.secret);

      const health = await fetch(`${hub.url}/health`);
      assertEquals(health.status, 200);
      await health.body?.cancel();
      const ext = await FakeExtension.connect(hub.port, hub.secret);
      await ext.close();
    } finally {
      await hub.stop();
    }
  });
});

Deno.test("a message fragmented into frames is closed once its running total passes 10 MB", async () => {
  await withTempDir(async (dir) => {
    const hub = await serveInProcessHub(dir);
    try {
      const conn = await upgradedSocket(hub.port, hub.secret);
      const fragment = 4 * MB; // three of them pass the limit
      assert(3 * fragment > MAX_FRAME_BYTES && 2 * fragment < MAX_FRAME_BYTES);
      await conn.write(frameHeader(0x1, fragment, false));
      assertEquals(await sendPayload(conn, fragment), fragment, "the first fragment is taken");
      await conn.write(frameHeader(0x0, fragment, false));
      assertEquals(await sendPayload(conn, fragment), fragment, "the second fragment is taken");
      await conn.write(frameHeader(0x0, fragment, true));
      assert(await closedWithin(conn, 10_000), "the third fragment's header closed the connection");
      const health = await fetch(`${hub.url}/health`);
      assertEquals(health.status, 200);
      await health.body?.cancel();
    } finally {
      await hub.stop();
    }
  });
});

/** The resident memory of process `pid` in MB, or undefined off Linux (no /proc). */
function rssIfLinux(pid: number): Promise<number | undefined> {
  return Deno.build.os === "linux" ? rssMb(pid) : Promise.resolve(undefined);
}

Deno.test("the same holds for the hub run as users run it (scoped permissions, its own process); its memory stays flat", async () => {
  await withTempDir(async (dir) => {
    const hub = await startHub({ configDir: dir });
    try {
      const before = await rssIfLinux(hub.child.pid);
      await assertRefuses50MbFrames(hub.port, hub.secret);
      const after = await rssIfLinux(hub.child.pid);
      if (before !== undefined && after !== undefined) {
        // Buffering the 50 MB frame added some 230 MB; the bound leaves room for warm-up noise.
        assert(after - before < 100, `the hub's RSS grew by ${(after - before).toFixed(0)} MB`);
      }
      const health = await fetch(`${hub.url}/health`);
      assertEquals(health.status, 200);
      await health.body?.cancel();
    } finally {
      assertEquals(await hub.stop(), 0, hub.output());
    }
  });
});
