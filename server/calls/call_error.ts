/**
 * How a tool call's failures become `HubError`s (protocol/errors.ts): a bad request body, an
 * aborted call, the extension's answer and any other thrown value. Library code throws HubErrors;
 * each transport turns them into its own shape in one function (docs/http.md, "Errors").
 */
import {
  CALL_FAILURES,
  type ErrorPayload,
  HubError,
  hubError,
  isErrorPayload,
} from "../../protocol/errors.ts";

/** INVALID_ARGUMENTS for a request whose body was unusable, with the status REST answers. */
export function badRequestError(request: { message: string; status: number }): HubError {
  return hubError("INVALID_ARGUMENTS", request.message, undefined, { status: request.status });
}

/** Why a call ended when its signal aborted: the HubError it carries, else CANCELLED. */
export function abortError(signal: AbortSignal, tool: string): HubError {
  return signal.reason instanceof HubError
    ? signal.reason
    : hubError("CANCELLED", `The caller cancelled ${tool}.`);
}

/**
 * An error the extension answered a dispatch with: the hub's call failures (TAB_CLOSED when a
 * tab closes mid-call…) and its refusals (SITE_NOT_ALLOWED…) keep their meaning and status;
 * anything else is the tool's own failure.
 */
export function extensionCallError(payload: ErrorPayload): HubError {
  return new HubError(payload, { fromTool: !Object.hasOwn(CALL_FAILURES, payload.code) });
}

/**
 * Any thrown value as a call's HubError: a HubError as it is (a management tool throws its own
 * failures with `fromTool`, like a plugin's ToolError), a bare payload as the tool's failure, and
 * anything unexpected as INTERNAL with its message.
 */
export function toHubError(error: unknown): HubError {
  if (error instanceof HubError) return error;
  if (isErrorPayload(error)) return new HubError(error, { fromTool: true });
  return hubError("INTERNAL", `Internal error: ${(error as Error)?.message ?? String(error)}`);
}
