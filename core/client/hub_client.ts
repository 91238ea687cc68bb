/**
 * Talks to a running hub over REST, with the secret from `auth.json`. The secret is sent only
 * after the process on the port proved it knows it (protocol/challenge.ts), once per client; a
 * process that did not (one that claims to have no secret included) gets no request at all.
 */
import type { HealthPayload } from "../../protocol/health.ts";
import { type HubProof, proveHub } from "../../protocol/challenge.ts";
import { UserError } from "../cli/user_error.ts";

/** The code of the error for a process on the port that did not prove it knows the secret. */
export const UNPROVEN_HUB = "UNPROVEN_HUB";

/** The process on the port did not prove it knows the secret, so it was not sent. */
export function unprovenHubError(port: number, reason: string): UserError {
  return new UserError(
    `The process on port ${port} did not prove it knows the hub secret (${reason}), so the ` +
      `secret was not sent. Another program may be using the port: see which one with ` +
      `"lsof -i :${port}" or "ss -ltnp 'sport = :${port}'", stop it or run hub on another ` +
      `port ("hub start --port <number>", then HUB_PORT or --port for commands). Or it is a hub ` +
      `older than this CLI, or one started with another HUB_CONFIG_DIR (another secret): ` +
      `restart it with "hub stop" and "hub start" from this setup.`,
    { code: UNPROVEN_HUB },
  );
}

export interface HubResponse<T> {
  status: number;
  body: T;
}

export class HubClient {
  /** The process on the port proved it knows the secret (kept for this client's life). */
  #proven = false;

  constructor(readonly port: number, readonly secret: string | undefined) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * The Authorization header to send: the secret, once the process on the port proved it knows
   * it. Undefined when nothing listens on the port. Throws `unprovenHubError` when the process
   * there did not prove it (whatever it answered), so nothing at all is sent to it. A client
   * without a secret (auth.json missing or broken) has nothing to prove or protect: none, and a
   * hub answers 401 where a secret is needed.
   */
  async authHeaders(
    timeoutMs = 10_000,
    deadline?: AbortSignal,
  ): Promise<Record<string, string> | undefined> {
    if (!this.secret) return {};
    if (!this.#proven) {
      const proof = await this.prove(timeoutMs, deadline);
      if (proof === undefined) return undefined;
      if (proof.kind !== "proven") throw unprovenHubError(this.port, proof.reason);
      this.#proven = true;
    }
    return { authorization: `Bearer ${this.secret}` };
  }

  /**
   * Asks the process on the port to prove it knows the secret now (never cached). Undefined
   * when nothing listens on the port. Only for a client that holds a secret. `deadline` (an
   * AbortSignal.timeout of `timeoutMs` or less) ends the check with the others that share it.
   */
  async prove(timeoutMs = 10_000, deadline?: AbortSignal): Promise<HubProof | undefined> {
    if (!this.secret) {
      throw new Error("HubClient.prove needs a secret: a client without one has nothing to prove.");
    }
    const fetchChallenge = (url: string, init: RequestInit) =>
      fetch(url, { ...init, signal: limit(timeoutMs, deadline) });
    try {
      return await proveHub({ port: this.port, secret: this.secret, fetch: fetchChallenge });
    } catch (error) {
      if (isConnectionRefused(error)) return undefined;
      if ((error as Error).name === "TimeoutError") {
        throw new UserError(
          `The process on port ${this.port} did not answer the hub's identity check ` +
            `(/auth/challenge) within ${Math.round(timeoutMs / 1000)} s, so the secret was not ` +
            `sent. Is the hub there busy or stuck? "hub logs" shows what it does.`,
        );
      }
      throw error;
    }
  }

  /**
   * Sends a request; undefined when nothing listens on the port. `timeoutMs` bounds each step
   * (the identity check, then the request); `deadline` bounds them together: pass
   * `AbortSignal.timeout(timeoutMs)` for one limit over the whole exchange.
   */
  async request<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; timeoutMs?: number; auth?: boolean; deadline?: AbortSignal } = {},
  ): Promise<HubResponse<T> | undefined> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const headers: Record<string, string> = {};
    if (options.auth !== false) {
      const auth = await this.authHeaders(timeoutMs, options.deadline);
      if (!auth) return undefined;
      Object.assign(headers, auth);
    }
    if (options.body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: limit(timeoutMs, options.deadline),
        redirect: "manual",
      });
    } catch (error) {
      if (isConnectionRefused(error)) return undefined;
      if ((error as Error).name === "TimeoutError") {
        throw new UserError(
          `The hub on port ${this.port} did not answer ${path} within ` +
            `${Math.round(timeoutMs / 1000)} s; the request may still be ` +
            'running there ("hub audit" shows when it ends).',
        );
      }
      throw error;
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: body as T };
  }

  /**
   * The full health payload; undefined when no hub runs. Throws when the secret is refused.
   * `oneDeadline`: `timeoutMs` bounds the identity check and the request together, not each.
   */
  async health(
    timeoutMs = 3_000,
    options: { oneDeadline?: boolean } = {},
  ): Promise<HealthPayload | undefined> {
    const deadline = options.oneDeadline ? AbortSignal.timeout(timeoutMs) : undefined;
    const res = await this.request<HealthPayload>("GET", "/health", { timeoutMs, deadline });
    if (!res) return undefined;
    if (res.status === 401) {
      throw new UserError(
        `The hub on port ${this.port} refused this machine's secret. Was it started with another ` +
          `HUB_CONFIG_DIR? The secret is read from the config dir's extension/auth.json.`,
      );
    }
    if (res.status !== 200 || typeof res.body !== "object") {
      throw new UserError(
        `Port ${this.port} answered /health with HTTP ${res.status}; is it a hub?`,
      );
    }
    return res.body;
  }

  /** True when something answers `/health` on the port (no auth needed). */
  async isUp(timeoutMs = 1_000): Promise<boolean> {
    try {
      const res = await this.request("GET", "/health", { timeoutMs, auth: false });
      return res !== undefined && res.status === 200;
    } catch {
      return false;
    }
  }
}

/** A step's own time limit, ended earlier by `deadline` when one is shared. */
function limit(timeoutMs: number, deadline: AbortSignal | undefined): AbortSignal {
  const own = AbortSignal.timeout(timeoutMs);
  return deadline ? AbortSignal.any([own, deadline]) : own;
}

function isConnectionRefused(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ""} ${(error as { cause?: Error })?.cause ?? ""}`;
  return /ECONNREFUSED|Connection refused|os error 111|ConnectionRefused/i.test(text);
}
