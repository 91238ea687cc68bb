/**
 * The extension's end of the JSON-RPC link: the shared engine (protocol/rpc_engine.ts) set up
 * for this side. It handles the hub's methods (HUB_TO_EXTENSION_METHODS), sends the extension's
 * (EXTENSION_TO_HUB_METHODS), accepts the batches the hub sends, and logs to the console.
 */
import { EXTENSION_TO_HUB_METHODS, HUB_TO_EXTENSION_METHODS } from "../../../protocol/events.ts";
import {
  createRpcEngine,
  type MethodHandlers,
  type OversizeAnswer,
  type RpcEngine,
  type RpcLogger,
} from "../../../protocol/rpc_engine.ts";

export type { OversizeAnswer } from "../../../protocol/rpc_engine.ts";

export type ServerHandlers = MethodHandlers<typeof HUB_TO_EXTENSION_METHODS>;

/** The link as the worker uses it: `close(error)` fails the requests still waiting. */
export type RpcPeer = RpcEngine<typeof HUB_TO_EXTENSION_METHODS, typeof EXTENSION_TO_HUB_METHODS>;

/** Everything goes to the console as a warning (debug lines as debug), prefixed "hub:". */
const CONSOLE: RpcLogger = {
  debug: (message) => console.debug(`hub: ${message}`),
  warn: (message) => console.warn(`hub: ${message}`),
  error: (message) => console.warn(`hub: ${message}`),
};

export function createRpcPeer(
  send: (text: string) => void,
  handlers: ServerHandlers,
  oversize?: OversizeAnswer,
): RpcPeer {
  return createRpcEngine({
    incoming: HUB_TO_EXTENSION_METHODS,
    outgoing: EXTENSION_TO_HUB_METHODS,
    handlers,
    send: (text) => send(text),
    name: "the hub extension",
    remote: "the hub",
    logger: CONSOLE,
    batches: true,
    oversize,
  });
}
