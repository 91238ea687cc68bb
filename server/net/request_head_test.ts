import { assertEquals } from "../../tests/helpers/assert.ts";
import { parseRequestHead } from "./request_head.ts";

Deno.test("a head is read as the server reads it: repeated headers joined, names in any case", () => {
  const head = parseRequestHead(
    "\r\nPOST /x HTTP/1.1\r\nauthorization: Bearer a\r\nAUTHORIZATION: Bearer b\r\n" +
      "Content-Length: 3\r\ncontent-length: 3\r\nTransfer-Encoding: chunked\r\n" +
      "Sec-WebSocket-Protocol: hub\r\nSec-WebSocket-Protocol: s\r\nUpgrade: h2c\r\n\r\n",
  );
  assertEquals(head, {
    http1: true,
    lengths: ["3", "3"],
    transferEncoding: "chunked",
    websocket: false,
    authorization: "Bearer a, Bearer b",
    wsProtocol: "hub, s",
  });
  assertEquals(parseRequestHead("PRI * HTTP/2.0\r\n\r\n").http1, false);
  assertEquals(parseRequestHead("GET / HTTP/1.0\nUpgrade: WebSocket\n\n").websocket, true);
});
