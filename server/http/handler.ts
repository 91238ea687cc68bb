/**
 * The hub's HTTP handler: a pure `(Request) => Promise<Response>` built from a route table.
 * Guards run in a fixed order (Host, Origin, then the upgrade check of `/ws`, auth, rate limit)
 * before the route, and before anything parses the URL (Deno builds it from the Host header).
 * A guard answers its refusal with `errorResponse`, and an error thrown by a route becomes its
 * JSON response below, with the same function, so a bad request can never crash the server.
 */
import type { Logger } from "../log/logger_interface.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import {
  type AuthMode,
  checkAuth,
  checkHost,
  checkOrigin,
  checkWebSocketUpgrade,
} from "./guards.ts";
import { credentialsOf } from "./credentials.ts";
import { errorResponse } from "./http_error.ts";
import { HubError, hubError } from "../../protocol/errors.ts";
import { type RateLimit, RateLimiter, RETRY_AFTER_SECONDS } from "./rate_limiter.ts";

export interface RouteContext {
  req: Request;
  url: URL;
  /** Values of `:name` segments in the route's path, decoded. */
  params: Record<string, string>;
  /** True when the request carried the right secret (always true when none is configured). */
  authenticated: boolean;
}

export interface Route {
  method: string;
  /** `/tools/:name/call`: a `:name` segment matches one path segment. */
  path: string;
  auth: AuthMode;
  /** When set, requests to this route are counted against this limit. */
  rateLimit?: RateLimit;
  handle(ctx: RouteContext): Response | Promise<Response>;
}

export interface HandlerDeps {
  routes: Route[];
  /** The current secret; undefined disables auth (docs/http.md, "Guards"). */
  secret(): string | undefined;
  /** The secret as its file is now (a look at the disk), tried when `secret()` refused a request. */
  freshSecret?(): string | undefined;
  logger: Logger;
  clock?: () => number;
}

/** The handler the runtime glue serves (its `Handler` type is server/net/'s). */
export function createHandler(deps: HandlerDeps): (req: Request) => Promise<Response> {
  const clock = deps.clock ?? Date.now;
  const limiters = new Map<Route, RateLimiter>();
  for (const route of deps.routes) {
    if (route.rateLimit) limiters.set(route, new RateLimiter(route.rateLimit, clock));
  }

  async function handle(req: Request): Promise<Response> {
    const blocked = checkHost(req) ?? checkOrigin(req);
    if (blocked) return blocked;
    const url = requestUrl(req);
    const matches = deps.routes
      .map((r) => ({ route: r, params: matchPath(r.path, url.pathname) }))
      .filter((m) => m.params !== undefined);
    const samePath = matches.map((m) => m.route);
    const found = matches.find((m) => m.route.method === req.method);
    const route = found?.route;
    const notUpgrade = route?.auth === "websocket" ? checkWebSocketUpgrade(req) : undefined;
    if (notUpgrade) return notUpgrade;
    const mode = route?.auth ?? "required";
    const secret = deps.secret();
    const presented = credentialsOf(req); // read once, checked against one or two secrets
    let auth = checkAuth(presented, secret, mode);
    // A secret rotated a moment ago is accepted at once, before the watcher has said so. The
    // look is bounded (one per 10 ms for all callers), as this runs before any rate limit.
    const fresh = auth.response && deps.freshSecret?.();
    if (fresh && fresh !== secret) auth = checkAuth(presented, fresh, mode);
    if (auth.response) return auth.response;
    if (!route) {
      if (samePath.length === 0) {
        throw hubError("NOT_FOUND", `No such endpoint: ${url.pathname}`);
      }
      const allow = samePath.map((r) => r.method).join(", ");
      throw hubError(
        "METHOD_NOT_ALLOWED",
        `${req.method} is not allowed on ${url.pathname}; use ${allow}.`,
        undefined,
        { headers: { allow } },
      );
    }
    const limiter = limiters.get(route);
    if (limiter && !limiter.take(route.path)) {
      throw hubError(
        "RATE_LIMITED",
        `Too many requests to ${route.path}: at most ${limiter.rule.limit} per minute. ` +
          `Retry in ${RETRY_AFTER_SECONDS} seconds.`,
        undefined,
        { headers: { "retry-after": String(RETRY_AFTER_SECONDS) } },
      );
    }
    return await route.handle({
      req,
      url,
      params: found!.params!,
      authenticated: auth.authenticated,
    });
  }

  return async (req: Request) => {
    const started = clock();
    let response: Response;
    try {
      response = await handle(req);
    } catch (error) {
      // Errors become JSON responses here and nowhere else; an unexpected one is logged, and the
      // caller learns nothing of it.
      if (error instanceof HubError) response = errorResponse(error);
      else {
        deps.logger.error(`${req.method} ${safePath(req)} failed: ${describe(error)}`);
        response = errorResponse(
          hubError("INTERNAL", "Internal error; see server.log for details."),
        );
      }
    }
    deps.logger.debug(`${req.method} ${safePath(req)} ${response.status} ${clock() - started}ms`);
    return response;
  };
}

/** The `:name` values when `pathname` fits `pattern`, else undefined. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  if (!pattern.includes(":")) return pattern === pathname ? {} : undefined;
  const want = pattern.split("/");
  const have = pathname.split("/");
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      if (have[i] === "") return undefined;
      try {
        params[want[i].slice(1)] = decodeURIComponent(have[i]);
      } catch {
        return undefined;
      }
    } else if (want[i] !== have[i]) return undefined;
  }
  return params;
}

/** The request's URL; a 400 when Deno could not make one (it builds it from the Host header). */
function requestUrl(req: Request): URL {
  try {
    return new URL(req.url);
  } catch {
    throw hubError("BAD_REQUEST", "The request target is not a valid URL path.");
  }
}

/** The path for the log: clipped, so a huge request target makes one short line. */
function safePath(req: Request): string {
  try {
    return clipForMessage(new URL(req.url).pathname, 200);
  } catch {
    return "(bad url)";
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
