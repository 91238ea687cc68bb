/** The one error type routes throw; the handler turns it into a JSON response in one place. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

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

/** `{ "error": { "code", "message" } }` with the error's status and headers. */
export function errorResponse(error: HttpError): Response {
  return jsonResponse({ error: { code: error.code, message: error.message } }, error.status, {
    ...error.headers,
  });
}
