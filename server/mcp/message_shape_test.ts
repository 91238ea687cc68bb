import { assertEquals } from "../../tests/helpers/assert.ts";
import { isInitializeRequest, isJsonRpcRequest } from "./message_shape.ts";
import { isInitializeRequest as sdkIsInitialize, isJSONRPCRequest as sdkIsRequest } from "./sdk.ts";

const init = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  },
};

const samples: [string, unknown][] = [
  ["initialize", init],
  ["initialize with a string id", { ...init, id: "a" }],
  ["initialize without clientInfo", { ...init, params: { ...init.params, clientInfo: undefined } }],
  ["initialize with a numeric version", {
    ...init,
    params: { ...init.params, protocolVersion: 2025 },
  }],
  ["initialize without params", { jsonrpc: "2.0", id: 1, method: "initialize" }],
  ["initialize with capabilities null", {
    ...init,
    params: { ...init.params, capabilities: null },
  }],
  ["a notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
  ["tools/list", { jsonrpc: "2.0", id: 2, method: "tools/list" }],
  ["a fractional id", { jsonrpc: "2.0", id: 1.5, method: "ping" }],
  ["a null id", { jsonrpc: "2.0", id: null, method: "ping" }],
  ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "ping" }],
  ["no method", { jsonrpc: "2.0", id: 1 }],
  ["a response", { jsonrpc: "2.0", id: 1, result: {} }],
  ["initialize with an extra member", { ...init, extra: 1 }],
  ["initialize without jsonrpc and id", { method: "initialize", params: init.params }],
  ["an extra member", { jsonrpc: "2.0", id: 3, method: "ping", extra: 1 }],
  ["params an array", { jsonrpc: "2.0", id: 3, method: "ping", params: [1] }],
  ["params null", { jsonrpc: "2.0", id: 3, method: "ping", params: null }],
  ["an array", [init]],
  ["null", null],
  ["a string", "initialize"],
];

Deno.test("isInitializeRequest agrees with the SDK on well-formed and broken initializes", () => {
  for (const [what, message] of samples) {
    assertEquals(isInitializeRequest(message), sdkIsInitialize(message), what);
  }
});

Deno.test("isJsonRpcRequest agrees with the SDK on requests, notifications and responses", () => {
  for (const [what, message] of samples) {
    assertEquals(isJsonRpcRequest(message), sdkIsRequest(message), what);
  }
});
