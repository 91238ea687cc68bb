/**
 * A program that took the hub's port: a plain `Deno.serve` that looks like a hub (answers
 * `/health` with `{"status":"ok"}`, accepts WebSocket upgrades) and records every request's
 * headers and every offered WebSocket subprotocol, so a test can check that no client of ours
 * handed it the secret. Its answer to `/auth/challenge` is garbage, a 404 (a server that has no
 * such route, like an old hub), the real hub's answer relayed from another port, or a 409
 * `NO_SECRET` (a claim to have no secret at all, which would invite clients to talk without one).
 */

export type SquatterMode = "garbage" | "not-found" | "relay" | "no-secret";

export interface SeenRequest {
  method: string;
  path: string;
  headers: [string, string][];
}

export interface Squatter {
  port: number;
  /** How it answers `/auth/challenge` (changeable while it runs). */
  mode: SquatterMode;
  /** The real hub's port, for `relay`. */
  relayTo?: number;
  requests: SeenRequest[];
  /** The subprotocols of each WebSocket upgrade request. */
  offers: string[][];
  /** Requests to `/auth/challenge` so far. */
  challenges(): number;
  /** `METHOD path` of every request that was not to `/auth/challenge` (WebSocket offers too). */
  others(): string[];
  /** Every header of every request that contains `secret`, as `path: name: value`. */
  leaks(secret: string): string[];
  stop(): Promise<void>;
}

/** Starts one on `port` (default: a free one); `relayTo` is the real hub's port for `relay`. */
export function startSquatter(
  mode: SquatterMode,
  { relayTo, port = 0 }: { relayTo?: number; port?: number } = {},
): Squatter {
  const requests: SeenRequest[] = [];
  const offers: string[][] = [];
  const sockets: WebSocket[] = [];
  const squatter: Squatter = {
    port: 0,
    mode,
    relayTo,
    requests,
    offers,
    challenges: () => requests.filter((r) => r.path === "/auth/challenge").length,
    others: () =>
      requests.filter((r) => r.path !== "/auth/challenge").map((r) => `${r.method} ${r.path}`),
    leaks: (secret) =>
      requests.flatMap((r) =>
        r.headers.filter(([, value]) => value.includes(secret)).map(([name, value]) =>
          `${r.method} ${r.path}: ${name}: ${value}`
        )
      ),
    stop: () => Promise.resolve(),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    requests.push({ method: req.method, path: url.pathname, headers: [...req.headers] });
    if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(",")
        .map((p) => p.trim()).filter((p) => p !== "");
      offers.push(offered);
      const { socket, response } = Deno.upgradeWebSocket(
        req,
        offered.length > 0 ? { protocol: offered[0] } : {},
      );
      sockets.push(socket);
      return response;
    }
    if (url.pathname === "/auth/challenge") return await answerChallenge(squatter, url);
    await req.body?.cancel();
    if (url.pathname === "/health") return Response.json({ status: "ok" });
    return Response.json({ ok: true });
  });
  squatter.port = server.addr.port;
  squatter.stop = async () => {
    for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.close();
    await server.shutdown();
  };
  return squatter;
}

async function answerChallenge(squatter: Squatter, url: URL): Promise<Response> {
  switch (squatter.mode) {
    case "garbage":
      return Response.json({ proof: "0123456789abcdef".repeat(4) });
    case "no-secret":
      return Response.json({
        error: { code: "NO_SECRET", message: "This hub has no secret configured." },
      }, { status: 409 });
    case "not-found":
      return Response.json({ error: { code: "NOT_FOUND", message: "No such endpoint" } }, {
        status: 404,
      });
    case "relay": {
      // The real hub computes the MAC, but for its own port, not the one the client asked.
      const res = await fetch(`http://127.0.0.1:${squatter.relayTo}${url.pathname}${url.search}`);
      return new Response(await res.text(), {
        status: res.status,
        headers: { "content-type": "application/json" },
      });
    }
  }
}
