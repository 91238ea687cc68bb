/** Talks to a running hub over REST, with the secret from `auth.json`. */
import type { HealthPayload } from "../protocol/health.ts";
import { CliError } from "./cli_error.ts";

export interface HubResponse<T> {
  status: number;
  body: T;
}

export class HubClient {
  constructor(readonly port: number, readonly secret: string | undefined) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Sends a request; undefined when nothing listens on the port. */
  async request<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; timeoutMs?: number; auth?: boolean } = {},
  ): Promise<HubResponse<T> | undefined> {
    const headers: Record<string, string> = {};
    if (options.auth !== false && this.secret) headers.authorization = `Bearer ${this.secret}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      if (isConnectionRefused(error)) return undefined;
      if ((error as Error).name === "TimeoutError") {
        throw new CliError(
          `The hub on port ${this.port} did not answer ${path} within ` +
            `${Math.round((options.timeoutMs ?? 10_000) / 1000)} s; the request may still be ` +
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

  /** The full health payload; undefined when no hub runs. Throws when the secret is refused. */
  async health(timeoutMs = 3_000): Promise<HealthPayload | undefined> {
    const res = await this.request<HealthPayload>("GET", "/health", { timeoutMs });
    if (!res) return undefined;
    if (res.status === 401) {
      throw new CliError(
        `The hub on port ${this.port} refused this machine's secret. Was it started with another ` +
          `HUB_CONFIG_DIR? The secret is read from the config dir's extension/auth.json.`,
      );
    }
    if (res.status !== 200 || typeof res.body !== "object") {
      throw new CliError(
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

function isConnectionRefused(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ""} ${(error as { cause?: Error })?.cause ?? ""}`;
  return /ECONNREFUSED|Connection refused|os error 111|ConnectionRefused/i.test(text);
}
