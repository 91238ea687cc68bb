/**
 * What the runtime glue serves: one function from a web-standard `Request` to its `Response`. The
 * hub's handler (server/http/handler.ts) is one; nothing in server/net/ knows what it does.
 */
import { errorBody, hubError, restStatus } from "../../protocol/errors.ts";

export type Handler = (req: Request) => Promise<Response>;

/**
 * The answer to a request the handler threw on (it should never throw): a bare 500 in the hub's
 * JSON error shape (`errorBody`, `restStatus`), built here so the glue does not depend on the
 * HTTP layer above it.
 */
export function internalErrorResponse(): Response {
  const error = hubError("INTERNAL", "Internal error; see server.log.");
  return new Response(JSON.stringify(errorBody(error)), {
    status: restStatus(error),
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
