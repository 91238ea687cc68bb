/**
 * The floor of a tool call on loopback, for the performance table: a bare `Deno.serve` that wraps
 * each POST body as the params of a `tool.dispatch` request, sends it over the one WebSocket
 * connected on `/ws` (the same fake extension the hub is measured with), and answers the HTTP
 * request with the reply's text. Nothing else: no auth, no validation, no audit.
 * Run: `deno run --allow-net bench/_bare_relay.ts`; it prints `listening <port>`.
 */
const pending = new Map<number, (text: string) => void>();
let socket: WebSocket | undefined;
let nextId = 1;

function relay(req: Request): Response | Promise<Response> {
  if (new URL(req.url).pathname === "/ws") {
    const upgraded = Deno.upgradeWebSocket(req, { protocol: "hub" });
    upgraded.socket.onmessage = (event) => {
      const text = String(event.data);
      const id = JSON.parse(text).id;
      pending.get(id)?.(text);
      pending.delete(id);
    };
    socket = upgraded.socket;
    return upgraded.response;
  }
  return req.text().then((body) =>
    new Promise<Response>((resolve) => {
      const id = nextId++;
      pending.set(id, (text) => resolve(new Response(text)));
      socket!.send(`{"jsonrpc":"2.0","id":${id},"method":"tool.dispatch","params":${body}}`);
    })
  );
}

const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening ${port}`) },
  relay,
);
await server.finished;
