/**
 * A call's outcome as an MCP `CallToolResult` (docs/http.md), the shape every transport returns:
 * values as JSON text (objects also as `structuredContent`), errors as a short text plus
 * `structuredContent.error` with code, message, category and retryable.
 */
import type { HubError } from "../../protocol/errors.ts";
import type { ContentBlock } from "../browser_tools/browser_tool_interface.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import type { CallOutcome } from "./pipeline_interface.ts";

export interface CallToolResult {
  [key: string]: unknown;
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A value as a result: its content (JSON text by default), and the value as `structuredContent`
 * when it is an object and the tool gave no content of its own, or asked for both (`structured`).
 */
export function successResult(
  value: unknown,
  content?: ContentBlock[],
  structured = false,
): CallToolResult {
  const text = () => typeof value === "string" ? value : JSON.stringify(value ?? null);
  const result: CallToolResult = { content: content ?? [{ type: "text", text: text() }] };
  if (isPlainObject(value) && (!content || structured)) result.structuredContent = value;
  return result;
}

/** MCP's one error mapper: a HubError as a tool result with `isError` (REST's tool calls too). */
export function errorResult(error: HubError): CallToolResult {
  const { details, ...rest } = error.payload;
  return {
    content: [{ type: "text", text: `${rest.code}: ${rest.message}` }],
    structuredContent: { error: details === undefined ? rest : { ...rest, details } },
    isError: true,
  };
}

/** A call's outcome as its result: the value, or the error (REST and MCP alike). */
export function outcomeResult(outcome: CallOutcome): CallToolResult {
  return outcome.ok
    ? successResult(outcome.value, outcome.content, outcome.structured)
    : errorResult(outcome.error);
}
