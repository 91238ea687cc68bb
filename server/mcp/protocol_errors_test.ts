/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import {
  invalidParams,
  invalidRequest,
  methodNotFound,
  rpcErrorOf,
  serverError,
  sessionError,
} from "./protocol_errors.ts";
import { RPC_ERRORS } from "../../protocol/rpc.ts";

Deno.test("rpcErrorOf: an integer code passes with its message and data; anything else is -32603", () => {
  assertEquals(rpcErrorOf(invalidParams("name must be a string")), {
    code: RPC_ERRORS.INVALID_PARAMS,
    message: "Invalid params: name must be a string",
  });
  assertEquals(rpcErrorOf({ code: 7, message: "m", data: { x: 1 } }), {
    code: 7,
    message: "m",
    data: { x: 1 },
  });
  assertEquals(rpcErrorOf(new Error("boom")), { code: RPC_ERRORS.INTERNAL_ERROR, message: "boom" });
  assertEquals(rpcErrorOf({ code: 1.5 }), {
    code: RPC_ERRORS.INTERNAL_ERROR,
    message: "Internal error",
  });
  assertEquals(rpcErrorOf(undefined), {
    code: RPC_ERRORS.INTERNAL_ERROR,
    message: "Internal error",
  });
});

Deno.test("the builders make the codes the SDK answers with", () => {
  assertEquals(rpcErrorOf(methodNotFound()), { code: -32601, message: "Method not found" });
  assertEquals(rpcErrorOf(invalidRequest("x")), { code: -32600, message: "Invalid Request: x" });
  assertEquals(rpcErrorOf(serverError("y")), { code: -32000, message: "y" });
});

Deno.test("sessionError: each refusal's status and code come from one table", async () => {
  const cases = [
    ["NO_SESSION", 400, -32000],
    ["UNKNOWN_EVENT_ID", 400, -32000],
    ["NOT_ACCEPTABLE", 406, -32000],
    ["SESSION_NOT_FOUND", 404, -32001],
    ["TOO_MANY_SESSIONS", 429, -32000],
  ] as const;
  for (const [kind, status, code] of cases) {
    const response = sessionError(kind, "why", { "retry-after": "60" });
    assertEquals(response.status, status, kind);
    assertEquals(response.headers.get("retry-after"), "60");
    assertEquals(await response.json(), {
      jsonrpc: "2.0",
      id: null,
      error: { code, message: "why" },
    });
  }
});
