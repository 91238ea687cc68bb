/**
 * The stdio bridge (`hub start --stdio`) stays bounded whatever an MCP client writes: a burst of
 * 20,000 `tools/list` gets 20,000 answers, each a result or a JSON-RPC error saying the bridge has
 * too many requests in flight, with the bridge's memory bounded; a 64 MB line gets an error naming
 * the limit, and the next request is answered.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { initializeRequest } from "../helpers/mcp_client.ts";
import {
  AUTO_DEMO_HUB,
  bridgeCommandArgs,
  type CliHub,
  startCliHub,
} from "../helpers/cli_tool_fixture.ts";

const BURST = 20_000;
/** The bridge at rest is a Deno process of about 75 MB; 846 MB were seen before the bound. */
const MAX_RSS_MB = 400;
const LONG_LINE_BYTES = 64 * 1024 * 1024;

let hub: CliHub;

Deno.test.beforeAll(async () => {
  hub = await startCliHub(AUTO_DEMO_HUB);
});

Deno.test.afterAll(async () => {
  assertEquals(await hub?.close(), 0);
});

type Message = {
  id?: string | number | null;
  result?: { tools?: unknown[] };
  error?: { code: number; message: string };
};

/** The bridge spawned as an MCP client spawns it, spoken to line by line. */
class RawBridge {
  readonly answers = new Map<string | number | null, Message>();
  stderr = "";
  readonly notJson: string[] = [];
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #done: Promise<unknown>;
  exited = false;

  constructor() {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: bridgeCommandArgs(hub.port),
      env: { HUB_CONFIG_DIR: hub.dir, HUB_SKIP_PKG_DISCOVERY: "1", NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#child.status.then(() => (this.exited = true));
    this.#done = Promise.all([this.#readStdout(), this.#readStderr()]);
  }

  get pid(): number {
    return this.#child.pid;
  }

  async #readStdout(): Promise<void> {
    let rest = "";
    for await (const text of this.#child.stdout.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + text).split("\n");
      rest = lines.pop()!;
      for (const line of lines) {
        let message: Message;
        try {
          message = JSON.parse(line);
        } catch {
          this.notJson.push(line.slice(0, 200)); // stdout must carry only protocol messages
          continue;
        }
        if (message.id !== undefined) this.answers.set(message.id, message);
      }
    }
  }

  async #readStderr(): Promise<void> {
    for await (const text of this.#child.stderr.pipeThrough(new TextDecoderStream())) {
      this.stderr = (this.stderr + text).slice(-20_000);
    }
  }

  async write(text: string | Uint8Array): Promise<void> {
    await this.#writer.write(typeof text === "string" ? new TextEncoder().encode(text) : text);
  }

  async send(message: unknown): Promise<void> {
    await this.write(JSON.stringify(message) + "\n");
  }

  /** Waits (10 minutes at most: a slow machine) until `check` holds; samples the RSS meanwhile. */
  async until(check: () => boolean, what: string, rss: number[] = []): Promise<void> {
    const deadline = Date.now() + 600_000;
    while (!check()) {
      assert(!this.exited, `the bridge exited while waiting for ${what}:\n${this.stderr}`);
      assert(Date.now() < deadline, `timed out waiting for ${what}:\n${this.stderr}`);
      rss.push(rssMb(this.pid));
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async initialize(): Promise<void> {
    await this.send(initializeRequest("bounds-test", "init"));
    await this.until(() => this.answers.has("init"), "the initialize answer");
    await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#child.status;
    await this.#done;
    assertEquals(this.notJson, [], "stdout carries only JSON-RPC messages");
  }
}

/** The resident memory of `pid` in MB (Linux), 0 elsewhere. */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

Deno.test("a burst of 20,000 tools/list: every one is answered, with a result or a bounded error, in bounded memory", async () => {
  const bridge = new RawBridge();
  try {
    await bridge.initialize();
    const burst = Array.from(
      { length: BURST },
      (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/list" }) + "\n",
    ).join("");
    const rss: number[] = [];
    const written = bridge.write(burst);
    const answered = () => {
      let count = 0;
      for (let id = 1; id <= BURST; id++) if (bridge.answers.has(id)) count++;
      return count === BURST;
    };
    await bridge.until(answered, `${BURST} answers`, rss);
    await written;
    let results = 0;
    let refused = 0;
    for (let id = 1; id <= BURST; id++) {
      const answer = bridge.answers.get(id)!;
      if (answer.result) {
        assert(Array.isArray(answer.result.tools), JSON.stringify(answer).slice(0, 300));
        results++;
        continue;
      }
      assertEquals(answer.error?.code, -32000, JSON.stringify(answer).slice(0, 300));
      assertMatch(answer.error!.message, /too many requests in flight \(limit \d+/);
      assert(answer.error!.message.length < 300, "a bounded error message");
      refused++;
    }
    assert(results > 0, "some requests were served");
    const peak = Math.max(0, ...rss);
    console.log(
      `burst: ${results} results, ${refused} refused; bridge RSS peak ${peak.toFixed(0)} MB`,
    );
    if (Deno.build.os === "linux") assert(peak < MAX_RSS_MB, `the bridge reached ${peak} MB`);
    // The bridge still serves after the burst.
    await bridge.send({ jsonrpc: "2.0", id: "next", method: "tools/list" });
    await bridge.until(() => bridge.answers.has("next"), "the answer after the burst");
    assert(bridge.answers.get("next")!.result, JSON.stringify(bridge.answers.get("next")));
  } finally {
    await bridge.close();
  }
});

Deno.test("a 64 MB line gets an error naming the limit, and the next request is answered", async () => {
  const bridge = new RawBridge();
  try {
    await bridge.initialize();
    const rss: number[] = [];
    const head =
      '{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"demo__echo",' +
      '"arguments":{"text":"';
    await bridge.write(head);
    const chunk = new TextEncoder().encode("a".repeat(1024 * 1024));
    for (let sent = 0; sent < LONG_LINE_BYTES; sent += chunk.length) {
      await bridge.write(chunk);
      rss.push(rssMb(bridge.pid));
    }
    await bridge.write('"}}}\n');
    await bridge.send({ jsonrpc: "2.0", id: "after", method: "tools/list" });
    await bridge.until(
      () => bridge.answers.has("long") && bridge.answers.has("after"),
      "both answers",
      rss,
    );
    const long = bridge.answers.get("long")!;
    assertEquals(long.error?.code, -32600, JSON.stringify(long));
    assertMatch(long.error!.message, /one line \(one message\) may hold 10485760 bytes at most/);
    assert(bridge.answers.get("after")!.result?.tools, "the next request is answered");
    assertMatch(bridge.stderr, /dropped a message of \d+ bytes/);
    assert(!bridge.exited, "the bridge is still running");
    const peak = Math.max(0, ...rss);
    console.log(`long line: bridge RSS peak ${peak.toFixed(0)} MB`);
    if (Deno.build.os === "linux") assert(peak < MAX_RSS_MB, `the bridge reached ${peak} MB`);
  } finally {
    await bridge.close();
  }
});
