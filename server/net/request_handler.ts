/**
 * What the runtime glue serves: one function from a web-standard `Request` to its `Response`. The
 * hub's handler (server/http/handler.ts) is one; nothing in server/net/ knows what it does.
 */
export type Handler = (req: Request) => Promise<Response>;

/**
 * The answer to a request the handler threw on (it should never throw): a bare 500 in the hub's
 * JSON error shape, written here so the glue does not depend on the HTTP layer above it.
 */
export function internalErrorResponse(): Response {
  const body = { error: { code: "INTERNAL", message: "Internal error; see server.log." } };
  return new Response(JSON.stringify(body), {
    status: 500,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
