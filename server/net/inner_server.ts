/**
 * The real HTTP server (`Deno.serve`) behind the connection guard, kept running. Only the guard
 * should reach it:
 *
 * - on a unix socket in `<config dir>/sockets/` (folder mode 0700) when the process may use one
 *   (Deno asks for `--allow-net=unix:<path>`; `--allow-all` grants it);
 * - otherwise (the scoped permission set names no socket path, or Windows) on an ephemeral
 *   loopback port, where requests that did not come through the guard are refused (403).
 *
 * `Deno.serve` ends its accept loop for good on the first "too many open files" error. When that
 * happens a new server takes over at once (a new socket file, or a fresh port) and the old one is
 * retired: on a unix socket it finishes serving the guard's connections it still has (the
 * extension's WebSocket stays) and is shut down when the last one ends, or after a grace period;
 * on a loopback port it is shut down at once, because idle connections other processes opened to
 * it hold the descriptors the hub needs, and only the shutdown frees them.
 */
import type { Logger } from "../log/logger_interface.ts";
import { type Handler, internalErrorResponse } from "./request_handler.ts";
import { errorText } from "../../protocol/clip.ts";
import { type Endpoint, loopbackEndpoint, type Served, unixEndpoint } from "./inner_endpoint.ts";
import { removeQuietly, removeStaleSockets, socketDir } from "./inner_socket.ts";

export interface InnerServer {
  readonly transport: "unix" | "tcp";
  /** A new connection to the server, for one client connection. */
  connect(): Promise<Deno.Conn>;
  /** Graceful shutdown of the server (and of any it replaced that still finish requests). */
  shutdown(): Promise<void>;
  /** Removes the socket files (and the temp folder they were in). */
  cleanup(): void;
}

/** A replacement that cannot start (out of descriptors) is tried again after this. */
const RESTART_DELAY_MS = 100;
/** A retired server still carrying the guard's connections is shut down after this at most. */
export const RETIRE_GRACE_MS = 5 * 60_000;
/** A new connection waits this long at most for a replacement server. */
const CONNECT_WAIT_MS = 5_000;

export function startInnerServer(
  handler: Handler,
  logger: Logger,
  publicPort: number,
  configDir: string | undefined,
): InnerServer {
  const onError = (error: unknown) => {
    logger.error(`Unhandled request error: ${errorText(error)}`);
    return internalErrorResponse();
  };
  const sockets = socketDir(configDir, publicPort);
  if (!sockets) return superviseServers(loopbackEndpoint(handler, onError), logger, () => {});
  const stale = sockets.temp ? Promise.resolve() : removeStaleSockets(sockets.dir);
  const endpoint = unixEndpoint(handler, onError, sockets.dir, publicPort);
  const inner = superviseServers(endpoint, logger, () => {
    if (sockets.temp) removeQuietly(sockets.dir);
  });
  return { ...inner, shutdown: () => Promise.all([stale, inner.shutdown()]).then(() => {}) };
}

interface Generation {
  served: Served;
  /** The guard's open connections to it. */
  conns: number;
  retired: boolean;
  grace?: ReturnType<typeof setTimeout>;
}

/** Runs servers from `endpoint`, replacing each one whose accept loop ends. */
export function superviseServers(
  endpoint: Endpoint,
  logger: Logger,
  removeFolder: () => void,
): InnerServer {
  const supervisor = new Supervisor(endpoint, logger);
  return {
    transport: endpoint.transport,
    connect: () => supervisor.connect(),
    shutdown: () => supervisor.shutdown(),
    cleanup() {
      supervisor.unlinkAll();
      removeFolder();
    },
  };
}

class Supervisor {
  readonly #all = new Set<Generation>();
  #current: Generation | undefined;
  #started = 0;
  #stopping = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #waiting: (() => void)[] = [];

  constructor(readonly endpoint: Endpoint, readonly logger: Logger) {
    this.#start(); // the first one throws (permissions, ...) to the caller
  }

  /** A connection to the live server, counted against it until closed. */
  async connect(): Promise<Deno.Conn> {
    const generation = this.#current ?? await this.#live();
    generation.conns++;
    let conn: Deno.Conn;
    try {
      conn = await generation.served.connect();
    } catch (error) {
      this.#release(generation);
      throw error;
    }
    const close = conn.close.bind(conn);
    let open = true;
    conn.close = () => {
      if (open) this.#release(generation);
      open = false;
      close();
    };
    return conn;
  }

  async shutdown(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#retry);
    for (const wake of this.#waiting.splice(0)) wake();
    for (const generation of this.#all) clearTimeout(generation.grace);
    await Promise.all([...this.#all].map((g) => g.served.server.shutdown().catch(() => {})));
  }

  unlinkAll(): void {
    for (const generation of this.#all) generation.served.unlink();
    this.#current?.served.unlink();
  }

  #start(): void {
    const generation = { served: this.endpoint.start(this.#started), conns: 0, retired: false };
    this.#started++;
    this.#current = generation;
    this.#all.add(generation);
    for (const wake of this.#waiting.splice(0)) wake();
    generation.served.server.finished.then(
      () => this.#all.delete(generation),
      (error) => this.#died(generation, error),
    );
  }

  #died(generation: Generation, error: unknown): void {
    if (this.#stopping) return void this.#all.delete(generation);
    this.logger.warn(
      `The internal HTTP server stopped accepting (${errorText(error)}); starting a new one` +
        (this.endpoint.drainable ? "." : " and closing the old one with its connections."),
    );
    if (this.#current === generation) this.#current = undefined;
    this.#retire(generation);
    this.#restart();
  }

  /** Drains a unix server (shut down when its last connection ends); shuts a port's down now. */
  #retire(generation: Generation): void {
    generation.retired = true;
    generation.served.unlink();
    if (!this.endpoint.drainable || generation.conns === 0) return this.#shutDown(generation);
    generation.grace = setTimeout(() => this.#shutDown(generation), RETIRE_GRACE_MS);
  }

  #shutDown(generation: Generation): void {
    clearTimeout(generation.grace);
    generation.served.server.shutdown().catch(() => {}).finally(() => {
      this.#all.delete(generation);
    });
  }

  #restart(): void {
    if (this.#stopping || this.#current) return;
    try {
      this.#start();
    } catch {
      this.#retry = setTimeout(() => this.#restart(), RESTART_DELAY_MS); // out of descriptors
    }
  }

  /** The server new connections go to, waiting a little while one is being replaced. */
  async #live(): Promise<Generation> {
    if (this.#current) return this.#current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      timer = setTimeout(resolve, CONNECT_WAIT_MS);
    });
    clearTimeout(timer);
    if (!this.#current) throw new Error("the internal HTTP server is restarting");
    return this.#current;
  }

  #release(generation: Generation): void {
    generation.conns--;
    if (generation.retired && generation.conns === 0 && this.endpoint.drainable) {
      this.#shutDown(generation);
    }
  }
}
