/**
 * `hub start --stdio`: a bridge, not a server. An MCP client that spawns this process talks MCP on
 * stdin/stdout; every message goes to the running hub's `/mcp` (or `/mcp/gateway`) over Streamable
 * HTTP, and everything the hub sends (responses, progress, logs, list changes) comes back. Stdout
 * carries only protocol messages; diagnostics go to stderr. Lines and requests in flight are
 * bounded (lines.ts, flow.ts): past a bound the client gets a JSON-RPC error saying so.
 */
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { UserError } from "../../core/cli/user_error.ts";
import { cliClient, cliPaths } from "../../core/client/client_context.ts";
import { type HubClient, unprovenHubError } from "../../core/client/hub_client.ts";
import { errorText } from "../../protocol/clip.ts";
import { boundedLines } from "./lines.ts";
import { BRIDGE_FLOW_LIMITS } from "./flow.ts";
import { createRelay } from "./relay.ts";

export interface BridgeOptions {
  port?: string;
  gateway?: boolean;
}

function log(message: string): void {
  console.error(`hub --stdio: ${message}`);
}

export async function stdioBridge(options: BridgeOptions): Promise<void> {
  const client = await cliClient(options.port);
  // health() throws a clear message when the hub refuses this config dir's secret.
  if (!(await client.health(3_000))) {
    throw new UserError(
      `No hub is running on port ${client.port}. "hub start --stdio" only connects an MCP ` +
        'client to a running hub: start one first with "hub start --background" (or ' +
        '"hub start" in another terminal), or set the port with --port / HUB_PORT.',
    );
  }
  if (!client.secret) {
    throw new UserError(
      `No secret in ${cliPaths().auth}. Run the bridge with the same HUB_CONFIG_DIR as the hub.`,
    );
  }
  const path = options.gateway ? "/mcp/gateway" : "/mcp";
  const url = new URL(`${client.baseUrl}${path}`);
  const write = stdoutWriter();
  const relay = createRelay({
    send: (message) => session.send(message),
    write,
    log,
    port: client.port,
    limits: BRIDGE_FLOW_LIMITS,
  });
  const session = hubSession(url, provenFetch(client), (message) => relay.fromHub(message));

  let close = () => {};
  const closed = new Promise<void>((resolve) => (close = resolve));
  // The client closing our stdin (or stopping us) ends the bridge and its hub session.
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, close);
  await session.start();
  log(`bridging stdio to ${url}`);
  const reading = (async () => {
    for await (const event of boundedLines(Deno.stdin.readable)) await relay.line(event);
  })().catch((error) => log(`reading stdin failed: ${errorText(error)}`));
  await Promise.race([reading, closed]);
  await session.close();
}

/**
 * Writes messages to stdout one after the other, each as one line. A write resolves once the
 * system took it, so a client that stops reading holds the bridge's answers back (and with them
 * the places of its requests, see flow.ts) instead of piling them up in memory.
 */
function stdoutWriter(): (message: JSONRPCMessage) => Promise<void> {
  const writer = Deno.stdout.writable.getWriter();
  let broken = false;
  return async (message) => {
    try {
      await writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
    } catch (error) {
      if (!broken) log(`stdout closed: ${errorText(error)}`);
      broken = true;
      throw error;
    }
  };
}

type Send = (message: JSONRPCMessage) => void;
type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Seconds the process on the port has to answer the identity check before each request. */
const PROOF_TIMEOUT_MS = 10_000;

/**
 * A fetch that has the process on the port prove it knows the secret before every request, and
 * only then adds it. The bridge lives as long as the MCP client; the hub may restart meanwhile,
 * and another program may take the port while it is down.
 */
function provenFetch(client: HubClient): Fetch {
  return async (url, init) => {
    const proof = await client.prove(PROOF_TIMEOUT_MS);
    // A TypeError like fetch's own, so the session treats it as a hub that went away.
    if (proof === undefined) throw new TypeError(`nothing listens on port ${client.port}`);
    // Anything but a proof (a claim to have no secret included): not one request goes there.
    if (proof.kind !== "proven") throw unprovenHubError(client.port, proof.reason);
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${client.secret}`);
    return await fetch(url, { ...init, headers });
  };
}

/**
 * The HTTP side of the bridge. It remembers the client's `initialize`, so when the hub restarted
 * (its answer is 404: the session is gone) it opens a new session with the same parameters and
 * sends the message again: the MCP client never notices.
 */
function hubSession(url: URL, fetch: Fetch, forward: Send) {
  let initialize: { params?: unknown } | undefined;
  /** The client's `initialize` while it is on its way: its answer brings the session id. */
  let opening: Promise<unknown> = Promise.resolve();
  const internal = new Map<string, (message: JSONRPCMessage) => void>();
  let next = 1;
  let http = open();

  function open() {
    const transport = new StreamableHTTPClientTransport(url, { fetch });
    transport.onmessage = (message: JSONRPCMessage) => {
      const m = message as { id?: string | number; result?: { protocolVersion?: string } };
      if (m.result?.protocolVersion) transport.setProtocolVersion(m.result.protocolVersion);
      const waiting = typeof m.id === "string" ? internal.get(m.id) : undefined;
      if (waiting) waiting(message);
      else forward(message);
    };
    transport.onerror = (error: Error) => log(error.message);
    return transport;
  }

  /** A new session on a new transport, which is `http` from the first step on. */
  async function reopen() {
    log("the hub lost this session (restarted?); opening a new one");
    const old = http;
    const transport = (http = open());
    await old.close().catch(() => {});
    await transport.start();
    const id = `hub-bridge-${next++}`;
    const answered = new Promise<JSONRPCMessage>((resolve) => internal.set(id, resolve));
    await transport.send(
      { jsonrpc: "2.0", id, method: "initialize", params: initialize!.params } as JSONRPCMessage,
    );
    const reply = await answered;
    internal.delete(id);
    if ("error" in reply) {
      throw new Error(`the hub refused a new session: ${JSON.stringify(reply.error)}`);
    }
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  /** Messages wait for `step` (an `initialize` or a new session) before they are sent. */
  function opensSession<T>(step: Promise<T>): Promise<T> {
    opening = step.catch(() => {});
    return step;
  }

  return {
    start: () => http.start(),
    async send(message: JSONRPCMessage) {
      const m = message as { method?: string; params?: unknown };
      if (m.method === "initialize") {
        initialize = { params: m.params };
        return await opensSession(http.send(message));
      }
      // A client that sends on before initialize is answered (pipelining) would reach the hub
      // without a session: its messages wait until the session exists, as they do while a lost
      // one is replaced, and are sent as usual then.
      await opening;
      const used = http;
      try {
        await used.send(message);
      } catch (error) {
        if (http === used) {
          // 404: the hub no longer knows the session; a network error: it restarted and the
          // kept-alive connection died. Either way a fresh session may work; if not, the error
          // stands. One new session serves every message that failed on the old one.
          const code = (error as { code?: number }).code;
          if (!(code === 404 || error instanceof TypeError) || !initialize) throw error;
          await opensSession(reopen());
        } else await opening; // another message found the session lost first and replaces it
        await http.send(message);
      }
    },
    async close() {
      await http.terminateSession().catch(() => {});
      await http.close().catch(() => {});
    },
  };
}
