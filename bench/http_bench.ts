/**
 * HTTP core benchmarks: the guarded handler in-process, a real loopback round trip, and a
 * config update (lock + atomic write). Run with `deno task bench`.
 */
import { createConfigStore } from "../core/config/config_store.ts";
import { silentLogger } from "../server/log/logger.ts";
import { listen } from "../server/net/listen.ts";
import { createInProcessHub } from "../tests/helpers/in_process_hub.ts";

const dir = await Deno.makeTempDir({ prefix: "hub-bench-" });
const { paths, hub, secret } = await createInProcessHub(dir);
const server = listen(hub.handler, 0, silentLogger);
hub.setPort(server.port);
const headers = { authorization: `Bearer ${secret}`, host: `127.0.0.1:${server.port}` };
const store = createConfigStore(paths.config);
addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

Deno.bench("handler: authenticated GET /health (in process)", async () => {
  await hub.handler(new Request(`http://127.0.0.1:${server.port}/health`, { headers }));
});

Deno.bench("loopback: authenticated GET /health round trip", async () => {
  const res = await fetch(`http://127.0.0.1:${server.port}/health`, { headers });
  await res.body?.cancel();
});

Deno.bench("loopback: 25 parallel GET /health", async () => {
  await Promise.all(Array.from({ length: 25 }, async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/health`, { headers });
    await res.body?.cancel();
  }));
});

Deno.bench("config: update (lock, atomic write, fsync)", async () => {
  await store.update((c) => {
    c.updateCheckIntervalMinutes = (c.updateCheckIntervalMinutes + 1) % 1000;
  });
});
