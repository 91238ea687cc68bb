/** The HTTP route table of the hub. Each endpoint is one row; the handler applies the guards. */
import type { Route } from "./http/handler.ts";
import { jsonResponse } from "./http/http_error.ts";
import { RATE_LIMITS } from "./http/rate_limiter.ts";
import type { HealthPayload } from "../protocol/health.ts";
import type { ListedTool } from "./plugins/tool_listing.ts";
import { readJsonBody } from "./http/body.ts";

export interface RouteDeps {
  health(): HealthPayload;
  /** `ws://127.0.0.1:<port>/ws` of this server. */
  wsUrl(): string;
  reload(): Promise<{ plugins: number; durationMs: number }>;
  /** Plugin tools, optionally of one plugin (`browser` lists the built-in tools). */
  listTools(plugin?: string): ListedTool[];
  updatePluginSettings(body: unknown): Promise<unknown>;
}

export function createRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: "GET",
      path: "/health",
      auth: "optional",
      handle: ({ authenticated }) =>
        jsonResponse(authenticated ? deps.health() : { status: "ok" }, 200, {
          "cache-control": "no-store",
        }),
    },
    {
      method: "GET",
      path: "/ws-info",
      auth: "required",
      handle: () => jsonResponse({ wsUrl: deps.wsUrl() }),
    },
    {
      method: "POST",
      path: "/reload",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: async () => jsonResponse({ ok: true, ...(await deps.reload()) }),
    },
    {
      method: "GET",
      path: "/tools",
      auth: "required",
      handle: ({ url }) =>
        jsonResponse({ tools: deps.listTools(url.searchParams.get("plugin") ?? undefined) }),
    },
    {
      method: "POST",
      path: "/plugin-settings",
      auth: "required",
      rateLimit: RATE_LIMITS.admin,
      handle: async ({ req }) =>
        jsonResponse(await deps.updatePluginSettings(await readJsonBody(req))),
    },
  ];
}
