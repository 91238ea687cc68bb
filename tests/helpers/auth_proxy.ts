/**
 * A reverse proxy for tests: forwards every request to a hub and adds `Authorization: Bearer
 * <secret>`, for third-party clients that cannot send the header (the MCP conformance suite).
 * Bodies of answers are streamed through (SSE), and a client that hangs up closes the upstream
 * request. The `Host` header is passed on unchanged, so the hub's own Host check still applies
 * (`fetch` would replace it; `node:http` does not).
 */
import { request } from "node:http";
import { Buffer } from "node:buffer";

export interface AuthProxy {
  url: string;
  close(): Promise<void>;
}

/** Request headers that belong to one connection, not to the request. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "upgrade",
  "proxy-connection",
]);

export function startAuthProxy(target: string, secret: string): AuthProxy {
  const upstream = new URL(target);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => forward(req, upstream, secret),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

async function forward(req: Request, upstream: URL, secret: string): Promise<Response> {
  const url = new URL(req.url);
  const headers: Record<string, string> = {};
  req.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  headers.authorization = `Bearer ${secret}`;
  const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
  return await new Promise<Response>((resolve) => {
    const out = request({
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: url.pathname + url.search,
      headers,
    }, (res) => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          res.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
          res.on("end", () => controller.close());
          res.on("error", (error) => controller.error(error));
        },
        cancel() {
          out.destroy();
        },
      });
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (HOP_BY_HOP.has(name) || value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) answer.append(name, v);
      }
      const empty = res.statusCode === 204 || res.statusCode === 304 || req.method === "HEAD";
      resolve(new Response(empty ? null : stream, { status: res.statusCode, headers: answer }));
    });
    out.on("error", (error) => resolve(new Response(`proxy: ${error.message}`, { status: 502 })));
    req.signal.addEventListener("abort", () => out.destroy());
    out.end(body);
  });
}
