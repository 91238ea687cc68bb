/**
 * The ends of the calls the worker runs that it does not decide itself. The hub owns a call's
 * deadline (and its cancel): when it ends a call the worker has not answered, it says so with
 * `tool.invocationEnd`, and a link that closes ends every call it carried. Each running dispatch
 * has a signal that aborts then, with the error to end on, so its tab work stops at once
 * (tab_calls.ts) and the page call is forgotten (door_exchanges.ts). The worker runs no clock of
 * its own for this.
 */
import type { ErrorPayload } from "../../../protocol/errors.ts";
import { HubError, hubError } from "../../../protocol/errors.ts";

export interface CallEnds {
  /** Dispatch `id` starts: its signal aborts when the hub ends it or the link closes. */
  start(id: string): AbortSignal;
  /** Dispatch `id` answered (or failed) on its own: nothing more to end. */
  done(id: string): void;
  /** The hub ended call `id` (`tool.invocationEnd`): it stops with the hub's error. */
  ended(id: string, error?: ErrorPayload): void;
  /** The link to the hub closed: every running call stops, as its answer cannot go out. */
  linkClosed(): void;
  /** Dispatches running (for tests). */
  running(): number;
}

export function createCallEnds(): CallEnds {
  const running = new Map<string, AbortController>();

  function end(id: string, error: HubError) {
    const controller = running.get(id);
    if (!controller) return;
    running.delete(id);
    controller.abort(error);
  }

  return {
    start(id) {
      const controller = new AbortController();
      running.set(id, controller);
      return controller.signal;
    },
    done(id) {
      running.delete(id);
    },
    ended(id, error) {
      // The payload came from the hub over the wire: it is the call's error as the agent saw it.
      end(id, error ? new HubError(error) : hubError("CANCELLED", "The hub ended the call."));
    },
    linkClosed() {
      for (const id of [...running.keys()]) {
        end(
          id,
          hubError(
            "EXTENSION_DISCONNECTED",
            "The link to the hub closed while the call ran, so its answer could not be sent.",
          ),
        );
      }
    },
    running: () => running.size,
  };
}
