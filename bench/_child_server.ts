/** A small bench server (bench/_bare_*.ts) as a child process that prints `listening <port>`. */
import { join } from "node:path";

export interface ChildServer {
  pid: number;
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startChildServer(script: string, args: string[]): Promise<ChildServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-net", "--allow-read", join(import.meta.dirname!, script)]
      .concat(args),
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} exited before listening: ${text}`);
    text += value;
  }
  const port = Number(/listening (\d+)/.exec(text)![1]);
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    pid: child.pid,
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}
