/**
 * One Chrome DevTools Protocol command through `chrome.debugger`, and its failures: every command
 * is bounded (a stuck page cannot hold a call), Chromium's error text is read into a CdpError, and
 * the pages hub never attaches to are named here.
 */

export type CdpParams = Record<string, unknown>;
export interface CdpEvent {
  tabId: number;
  sessionId?: string;
  method: string;
  params: CdpParams;
}

/** A command that failed: what CDP answered (`cdpCode`), or that it did not answer in time. */
export class CdpError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
    readonly cdpCode?: number,
  ) {
    super(message);
    this.name = "CdpError";
  }
}

/** Whether `error` is a command that did not answer within its bound. */
export function isSendTimeout(error: unknown): boolean {
  return error instanceof CdpError && error.timedOut;
}

/** `promise`, or a timed-out CdpError after `ms`. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CdpError(`${what} did not answer within ${ms} ms`, true)),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Chromium's error text for a failed command: often `{"code":-32000,"message":"…"}`. */
export function cdpFailure(method: string, error: unknown): CdpError {
  const text = String((error as Error)?.message ?? error);
  try {
    const parsed = JSON.parse(text) as { code?: number; message?: string };
    if (parsed && typeof parsed.message === "string") {
      return new CdpError(`${method}: ${parsed.message}`, false, parsed.code);
    }
  } catch { /* plain text */ }
  return new CdpError(`${method}: ${text}`);
}

/** `method` sent to the tab (or its child `sessionId`), bounded by `ms`; failures as CdpError. */
export function sendBounded<T>(
  tabId: number,
  method: string,
  params: CdpParams | undefined,
  sessionId: string | undefined,
  ms: number,
): Promise<T> {
  const target: chrome.debugger.DebuggerSession = { tabId };
  if (sessionId) target.sessionId = sessionId;
  return bounded(
    Promise.resolve().then(() => chrome.debugger.sendCommand(target, method, params))
      .catch((error: unknown) => {
        throw cdpFailure(method, error);
      }) as Promise<T>,
    ms,
    `${method} in tab ${tabId}`,
  );
}

/**
 * Why hub never attaches to `url` (a sentence), or undefined for a web page it may attach to:
 * only http(s) pages, and never the Chrome Web Store (Chromium refuses it anyway).
 */
export function neverAttachReason(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "no web page";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `a ${parsed.protocol} page`;
  }
  const host = parsed.hostname.toLowerCase();
  if (
    host === "chromewebstore.google.com" ||
    (host === "chrome.google.com" && parsed.pathname.startsWith("/webstore"))
  ) return "the Chrome Web Store";
  return undefined;
}
