/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { loopbackEndpoint } from "./inner_endpoint.ts";
import { internalErrorResponse } from "./request_handler.ts";

/** Sends one raw request and reads until the server closes the connection. */
async function rawExchange(conn: Deno.Conn, request: string): Promise<string> {
  await conn.write(new TextEncoder().encode(request));
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(4096);
  while (true) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    chunks.push(buffer.slice(0, n));
  }
  conn.close();
  return new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
}

Deno.test("the internal port answers a stranger 403 WRONG_PORT in the hub's error shape, then closes", async () => {
  const endpoint = loopbackEndpoint(
    () => Promise.resolve(new Response("served")),
    () => internalErrorResponse(),
  );
  const served = endpoint.start(0);
  try {
    const stranger = await Deno.connect({
      hostname: "127.0.0.1",
      port: (served.server.addr as Deno.NetAddr).port,
    });
    const answer = await rawExchange(stranger, "GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
    assert(answer.startsWith("HTTP/1.1 403"), answer);
    assert(/content-type: application\/json/i.test(answer), answer);
    assert(
      answer.includes(
        JSON.stringify({
          error: { code: "WRONG_PORT", message: "Connect to the hub's own port." },
        }),
      ),
      answer,
    );
    const guarded = await served.connect();
    const ok = await rawExchange(
      guarded,
      "GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n",
    );
    assert(ok.startsWith("HTTP/1.1 200"), ok);
    assertEquals(ok.endsWith("served"), true, ok);
  } finally {
    await served.server.shutdown();
  }
});
