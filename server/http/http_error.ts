/**
 * REST's one error mapper: a `HubError` (protocol/errors.ts) as a JSON response with the status of
 * its code's row in the error table (`restStatus`), the body of `errorBody` and its headers. Guards, body reading, the
 * routes and the code behind them throw HubErrors; the handler answers them here.
 */
import { errorBody, type HubError, restStatus } from "../../protocol/errors.ts";

export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * The response for an error: `{ "error": { "code", "message" } }` unless `body` is given (a tool
 * call answers its `CallToolResult`), with the error's REST status and headers.
 */
export function errorResponse(error: HubError, body?: unknown): Response {
  return jsonResponse(
    body ?? errorBody(error),
    restStatus(error),
    { ...error.headers },
  );
}
