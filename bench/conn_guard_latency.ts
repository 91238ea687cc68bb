/**
 * The cost of the connection guard: `GET /health` round trips through the guard (the hub's own
 * accept loop relaying to `Deno.serve` behind it) against `Deno.serve` on a port directly, on new
 * connections and on a kept-alive one, then through the guard while 500 idle connections are open.
 * With `--allow-all` the hop is a unix socket; with the hub's scoped permissions, a loopback port.
 * Run: `deno run --allow-all bench/conn_guard_latency.ts`.
 */
import { measure, printTable, type Row } from "./_stats.ts";
import { silentLogger } from "../server/log/logger.ts";
import { listen } from "../server/net/listen.ts";
import { createInProcessHub } from "../tests/helpers/in_process_hub.ts";

const N = 2000;
const dir = await Deno.makeTempDir({ prefix: "hub-bench-guard-" });
const { hub } = await createInProcessHub(dir);
const guarded = listen(hub.handler, 0, silentLogger, { socketDir: dir });
const direct = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, hub.handler);
hub.setPort(guarded.port);

const head = (port: number, close: boolean) =>
  new TextEncoder().encode(
    `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${
      close ? "Connection: close\r\n" : ""
    }\r\n`,
  );
const buffer = new Uint8Array(16 * 1024);

/** One request on a new connection, read to the server's close. */
async function fresh(port: number): Promise<void> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(head(port, true));
  while ((await conn.read(buffer)) !== null) {
    // the whole response
  }
  conn.close();
}

/** One request on a kept-alive connection, read to the end of the (small) JSON body. */
function keptAlive(port: number): () => Promise<void> {
  let conn: Deno.Conn | undefined;
  return async () => {
    conn ??= await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(head(port, false));
    let text = "";
    while (!text.endsWith("}")) {
      const n = await conn.read(buffer);
      if (n === null) throw new Error("closed");
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
  };
}

const directPort = direct.addr.port;
const rows: Row[] = [
  ["new connection, Deno.serve directly", await measure(() => fresh(directPort), N), 1],
  ["new connection, through the guard", await measure(() => fresh(guarded.port), N), 1],
  ["keep-alive, Deno.serve directly", await measure(keptAlive(directPort), N), 1],
  ["keep-alive, through the guard", await measure(keptAlive(guarded.port), N), 1],
];
const idle = await Promise.all(
  Array.from({ length: 500 }, () => Deno.connect({ hostname: "127.0.0.1", port: guarded.port })),
);
rows.push(["new connection, guard, 500 idle open", await measure(() => fresh(guarded.port), N), 1]);
printTable(rows);
for (const conn of idle) conn.close();
await hub.close();
await guarded.shutdown(1_000);
await direct.shutdown();
await Deno.remove(dir, { recursive: true });
