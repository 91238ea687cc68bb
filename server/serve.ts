/** Binds a handler to 127.0.0.1 with `Deno.serve`; the only place the hub touches the network. */
import type { Handler } from "./http/handler.ts";
import type { Logger } from "./log/logger.ts";
import { errorResponse, HttpError } from "./http/http_error.ts";
import { UserError } from "./user_error.ts";

export interface RunningServer {
  hostname: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, and gives up waiting after `deadlineMs`. */
  shutdown(deadlineMs?: number): Promise<void>;
  finished: Promise<void>;
}

/** Thrown when the port is taken; the message says how to pick another. */
export class PortInUseError extends UserError {
  constructor(readonly port: number) {
    super(
      `Port ${port} is already in use (is another hub running? try "hub status --port ${port}"). ` +
        `Stop that process, or start hub on another port: "hub start --port <number>" or PORT=<number>.`,
    );
    this.name = "PortInUseError";
  }
}

export function listen(handler: Handler, port: number, logger: Logger): RunningServer {
  const hostname = "127.0.0.1";
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname,
      port,
      onListen: () => {},
      onError: (error) => {
        logger.error(`Unhandled request error: ${(error as Error)?.message ?? error}`);
        return errorResponse(new HttpError(500, "INTERNAL", "Internal error; see server.log."));
      },
    }, (req) => handler(req));
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) throw new PortInUseError(port);
    throw error;
  }
  return {
    hostname,
    port: server.addr.port,
    finished: server.finished,
    async shutdown(deadlineMs = 5_000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
      await Promise.race([server.shutdown(), deadline]);
      clearTimeout(timer);
    },
  };
}
