/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { badRequest, serverUnavailable } from "./conn_io.ts";
import { internalErrorResponse } from "./request_handler.ts";

/** The status line, the headers (lower-cased names) and the parsed JSON body of raw bytes. */
function parse(bytes: Uint8Array) {
  const text = new TextDecoder().decode(bytes);
  const [head, body] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => l.split(": ")));
  assertEquals(Number(headers["content-length"]), new TextEncoder().encode(body).length);
  return { statusLine, headers, body: JSON.parse(body) };
}

Deno.test("the guard's 400 has the hub's error shape, its status from the table", () => {
  const answer = parse(badRequest("a second Content-Length"));
  assertEquals(answer.statusLine, "HTTP/1.1 400 Bad Request");
  assertEquals(answer.headers.connection, "close");
  assertEquals(answer.headers["content-type"], "application/json");
  assertEquals(answer.body.error.code, "BAD_REQUEST");
  assert(answer.body.error.message.includes("a second Content-Length"));
  assertEquals(Object.keys(answer.body), ["error"]);
});

Deno.test("the guard's 503 is SERVER_RESTARTING with Retry-After", () => {
  const answer = parse(serverUnavailable());
  assertEquals(answer.statusLine, "HTTP/1.1 503 Service Unavailable");
  assertEquals(answer.headers["retry-after"], "1");
  assertEquals(answer.body.error.code, "SERVER_RESTARTING");
  assert(answer.body.error.message.includes("Retry the request in a second"));
});

Deno.test("the glue's own 500 has the same shape", async () => {
  const response = internalErrorResponse();
  assertEquals(response.status, 500);
  assertEquals(await response.json(), {
    error: { code: "INTERNAL", message: "Internal error; see server.log." },
  });
});
