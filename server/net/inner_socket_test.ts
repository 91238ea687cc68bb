import { assertEquals } from "../../tests/helpers/assert.ts";
import { join } from "node:path";
import { removeStaleSockets, socketFile } from "./inner_socket.ts";

/** Socket files left behind by a process killed with SIGKILL (a clean close removes them). */
async function leaveSocketFiles(paths: string[]): Promise<void> {
  const code = `for (const path of ${
    JSON.stringify(paths)
  }) Deno.listen({ transport: "unix", path });
    console.log("up"); setInterval(() => {}, 1000);`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  await reader.read(); // "up"
  child.kill("SIGKILL");
  await child.status;
  await reader.cancel();
}

Deno.test({
  name: "socket files of hubs that are gone are removed; a live one and other files stay",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "hub-sockets-" });
    try {
      const other = join(dir, "other.sock");
      await leaveSocketFiles([socketFile(dir, 9515, 0), socketFile(dir, 9515, 3), other]);
      const live = Deno.listen({ transport: "unix", path: socketFile(dir, 9516, 0) });
      const accepting = live.accept().then((conn) => conn.close(), () => {});
      await Deno.writeTextFile(join(dir, "notes.txt"), "not ours");

      await removeStaleSockets(dir);
      const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
      assertEquals(names, ["http-9516.sock", "notes.txt", "other.sock"]);
      live.close();
      await accepting;
      await removeStaleSockets(join(dir, "missing")); // no folder: nothing to do
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
