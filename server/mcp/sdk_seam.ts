/**
 * The SDK's seam of one session: every request goes to the official SDK's Streamable HTTP
 * transport (and its server object, sdk_server.ts). The event store learns a batch's request ids
 * first, so their answers are stored as the batch's stream.
 */
import type { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import type { SessionEventStore } from "./event_store.ts";
import { isJsonRpcRequest } from "./message_shape.ts";
import type { McpSeam } from "./seam.ts";

export function sdkSeam(
  transport: WebStandardStreamableHTTPServerTransport,
  events: SessionEventStore,
): McpSeam {
  return {
    handle(req, { parsedBody } = {}) {
      if (Array.isArray(parsedBody)) {
        events.noteBatch(parsedBody.filter(isJsonRpcRequest).map((m) => m.id));
      }
      return transport.handleRequest(req, { parsedBody });
    },
  };
}
