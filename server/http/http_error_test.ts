/// <reference lib="deno.ns" />
/** REST's error mapper: a HubError as its JSON response. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { HubError, hubError } from "../../protocol/errors.ts";
import { errorResponse } from "./http_error.ts";

Deno.test("errorResponse: the code's row gives the status; the body is code and message", async () => {
  const response = errorResponse(hubError("PLUGIN_NOT_FOUND", "No plugin x."));
  assertEquals(response.status, 404);
  assertEquals(response.headers.get("content-type"), "application/json; charset=utf-8");
  assertEquals(await response.json(), {
    error: { code: "PLUGIN_NOT_FOUND", message: "No plugin x." },
  });
});

Deno.test("errorResponse: an error's own status and headers win", async () => {
  const limited = errorResponse(
    hubError("RATE_LIMITED", "Slow down.", undefined, { headers: { "retry-after": "60" } }),
  );
  assertEquals([limited.status, limited.headers.get("retry-after")], [429, "60"]);
  const big = errorResponse(hubError("INVALID_ARGUMENTS", "Too big.", undefined, { status: 413 }));
  assertEquals(big.status, 413);
  await limited.body?.cancel();
  await big.body?.cancel();
});

Deno.test("errorResponse: a tool's failure is 422 with the body the call answers", async () => {
  const payload = {
    code: "NOT_LOGGED_IN",
    message: "Sign in.",
    category: "auth",
    retryable: false,
  };
  const response = errorResponse(new HubError(payload as never, { fromTool: true }), { x: 1 });
  assertEquals([response.status, await response.json()], [422, { x: 1 }]);
});
