/**
 * The one error type domain code throws (plugins, settings, permissions, management tools): what
 * kind of failure it is and a code from `HUB_ERRORS`, with a message that says what to do. Domain
 * code knows nothing about transports; each transport maps these once: REST to an HTTP status
 * (`http/http_error.ts`), the extension's JSON-RPC to an RPC error (`extension/handlers.ts`), a
 * tool call to a `CallError` (`calls/call_error.ts`).
 */
import { type ErrorPayload, hubError, type HubErrorCode } from "../protocol/errors.ts";

/**
 * `invalid`: the request cannot be carried out as sent. `not_found`: it names something that does
 * not exist. `failed`: the hub could not do it (a broken file).
 */
export type DomainErrorKind = "invalid" | "not_found" | "failed";

export class DomainError extends Error {
  constructor(readonly kind: DomainErrorKind, readonly code: HubErrorCode, message: string) {
    super(message);
    this.name = "DomainError";
  }

  /** The error as every transport's `{ code, message, category, retryable }`. */
  get payload(): ErrorPayload {
    return hubError(this.code, this.message);
  }
}
