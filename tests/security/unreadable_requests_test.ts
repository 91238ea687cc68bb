/**
 * Requests the connection guard cannot follow exactly are never silently dropped: a first request
 * gets a 400 that says why, and after earlier requests on the same connection, those are answered
 * before the connection closes.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { withTempDir } from "../helpers/hub_process.ts";
import { serveInProcessHub } from "../helpers/in_process_hub.ts";
import { rawSend } from "../helpers/raw_http.ts";

Deno.test("a first request the guard cannot read gets a 400 JSON error saying why", async () => {
  await withTempDir(async (dir) => {
    const hub = await serveInProcessHub(dir);
    try {
      const host = `Host: 127.0.0.1:${hub.port}\r\n`;
      const cases = [
        `POST /reload HTTP/1.1\r\n${host}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n`,
        `POST /reload HTTP/1.1\r\n${host}Transfer-Encoding: gzip\r\n\r\n`,
        `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`,
      ];
      for (const request of cases) {
        const answer = await rawSend(hub.port, request);
        assertEquals(answer.status, 400, answer.body.slice(0, 200));
        assertEquals(JSON.parse(answer.body).error.code, "BAD_REQUEST");
        assertMatch(JSON.parse(answer.body).error.message, /cannot read this request/);
      }
    } finally {
      await hub.stop();
    }
  });
});

Deno.test("a request head over 64 KiB is answered with an error status, never dropped", async () => {
  await withTempDir(async (dir) => {
    const hub = await serveInProcessHub(dir);
    try {
      const answer = await rawSend(
        hub.port,
        `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nX-Big: ${
          "a".repeat(70 * 1024)
        }\r\n\r\n`,
      );
      assert(answer.status !== undefined && answer.status >= 400 && answer.status < 500);
    } finally {
      await hub.stop();
    }
  });
});

Deno.test("an unreadable request after a good one: the good one is answered, then the close", async () => {
  await withTempDir(async (dir) => {
    const hub = await serveInProcessHub(dir);
    try {
      // A GET with a body and no Content-Length: the body reads as a 195 KB request line.
      const body = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => i));
      const answer = await rawSend(
        hub.port,
        `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\n\r\n${body}`,
      );
      assertEquals(answer.status, 200);
      assert(answer.body.includes('"status":"ok"'), answer.body.slice(0, 200));
    } finally {
      await hub.stop();
    }
  });
});

Deno.test("an early answer to a large body (a 401) reaches the client instead of a reset", async () => {
  await withTempDir(async (dir) => {
    const hub = await serveInProcessHub(dir);
    try {
      const body = JSON.stringify({ arguments: { text: "x".repeat(4 * 1024 * 1024) } });
      for (let i = 0; i < 5; i++) {
        const answer = await rawSend(
          hub.port,
          `POST /tools/none__x/call HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\n` +
            `Authorization: Bearer wrong\r\nContent-Type: application/json\r\n` +
            `Connection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        assertEquals(answer.status, 401, `attempt ${i}: ${answer.body.slice(0, 200)}`);
      }
    } finally {
      await hub.stop();
    }
  });
});
