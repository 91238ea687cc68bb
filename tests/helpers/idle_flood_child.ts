/**
 * A child process that floods a port with idle connections, as a hostile local process would:
 * `idle_flood_child.ts <port> <count>` keeps `count` connections open that never send a byte; one
 * the server closes is reopened at once, so the pressure lasts as long as the child runs (past the
 * server's request-head timeout too). Prints `opened <n> open <m>` every 100 ms (`open`: the
 * connections the server has not closed yet, as this side sees them); runs until killed.
 */
const [portArg, countArg] = Deno.args;
const port = Number(portArg);
const count = Number(countArg);
let opened = 0;
let open = 0;

async function holdOne(): Promise<void> {
  while (true) {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port }).catch(() => undefined);
    if (!conn) {
      await new Promise((r) => setTimeout(r, 10)); // refused or out of descriptors: try again
      continue;
    }
    opened++;
    open++;
    try {
      const buffer = new Uint8Array(64);
      while ((await conn.read(buffer)) !== null) {
        // the hub sends nothing to a silent connection; wait for its close
      }
    } catch {
      // reset
    }
    open--;
    conn.close();
  }
}

for (let i = 0; i < count; i++) void holdOne();
setInterval(() => console.log(`opened ${opened} open ${open}`), 100);
