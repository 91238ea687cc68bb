/**
 * The error type of the HTTP layer (body reading, guards, a route's own checks); the handler turns
 * it, and any `DomainError` from the code behind a route, into a JSON response in one place.
 */
import type { DomainError, DomainErrorKind } from "../domain_error.ts";

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

/** The HTTP status of each kind of domain failure. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  not_found: 404,
  failed: 500,
};

/** A domain failure as REST answers it: the status of its kind, its code and message. */
export function domainHttpError(error: DomainError): HttpError {
  return new HttpError(DOMAIN_STATUS[error.kind], error.code, error.message);
}
