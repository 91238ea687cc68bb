/**
 * Fetch helpers that call the web app with the page's own session: cookies are included, a call
 * gives up after 30 s, and an HTTP failure becomes a ToolError whose category tells the agent
 * what happened (401/403 auth, 404 not_found, 429 rate_limit, 5xx unavailable, …).
 */
import type { ErrorCategory } from "../protocol/errors.ts";
import { ToolError } from "./tool_error.ts";

export const FETCH_TIMEOUT_MS = 30_000;

export interface PageFetchInit extends RequestInit {
  /** Give up after this many milliseconds (default 30 000). */
  timeoutMs?: number;
}

/** The ToolError category for an HTTP status. */
export function categoryForStatus(status: number): ErrorCategory {
  if (status === 401 || status === 403) return "auth";
  if (status === 404 || status === 410) return "not_found";
  if (status === 408 || status === 504) return "timeout";
  if (status === 429) return "rate_limit";
  if (status >= 500) return "unavailable";
  if (status >= 400) return "validation";
  return "internal";
}

async function bodySnippet(response: Response): Promise<string> {
  try {
    const text = (await response.text()).trim();
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return "";
  }
}

/**
 * `fetch` with the page's credentials and a timeout. Resolves only for 2xx/3xx responses; any other
 * status, a network failure or the timeout throws a ToolError.
 */
export function pageFetch(input: string | URL, init: PageFetchInit = {}): Promise<Response> {
  return fetchAndRead(input, init, (response) => Promise.resolve(response));
}

/** Fetches and runs `read` on the response, all within one timeout (headers and body). */
async function fetchAndRead<T>(
  input: string | URL,
  init: PageFetchInit,
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const { timeoutMs = FETCH_TIMEOUT_MS, ...rest } = init;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const outer = rest.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  const url = String(input);
  const timedOut = () => controller.signal.aborted && !outer?.aborted;
  const timeoutError = () =>
    new ToolError(`Request to ${url} timed out after ${timeoutMs} ms`, {
      code: "TIMEOUT",
      category: "timeout",
      details: { url },
    });
  try {
    let response: Response;
    try {
      response = await fetch(input, { credentials: "include", ...rest, signal: controller.signal });
    } catch (error) {
      if (timedOut()) throw timeoutError();
      throw new ToolError(`Request to ${url} failed: ${(error as Error).message}`, {
        code: "NETWORK_ERROR",
        category: "unavailable",
        details: { url },
      });
    }
    if (response.status >= 400) {
      const snippet = await bodySnippet(response);
      throw new ToolError(
        `${rest.method ?? "GET"} ${url} answered HTTP ${response.status}` +
          (snippet ? `: ${snippet}` : ""),
        {
          code: `HTTP_${response.status}`,
          category: categoryForStatus(response.status),
          details: { status: response.status, url },
        },
      );
    }
    try {
      return await read(response);
    } catch (error) {
      if (timedOut()) throw timeoutError();
      throw error;
    }
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", forward);
  }
}

/** `pageFetch` that parses the answer as JSON; a non-JSON answer is an `INVALID_RESPONSE` error. */
export async function fetchJson<T = unknown>(input: string | URL, init: PageFetchInit = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("accept")) headers.set("accept", "application/json");
  if (init.body !== undefined && typeof init.body === "string" && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  const text = await fetchAndRead(input, { ...init, headers }, (r) => r.text());
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ToolError(`${String(input)} did not answer JSON: ${text.slice(0, 200)}`, {
      code: "INVALID_RESPONSE",
      category: "internal",
    });
  }
}

/** `pageFetch` that returns the answer's text. */
export async function fetchText(input: string | URL, init: PageFetchInit = {}): Promise<string> {
  return await fetchAndRead(input, init, (r) => r.text());
}
