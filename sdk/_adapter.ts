/**
 * The page-side runtime of a built adapter: `hub-plugin build` generates an entry that returns
 * `registerAdapter(plugin, meta)` from the bundle's IIFE, so injecting the file hands the
 * extension the door's key and secret and nothing else sees them (protocol/adapter.ts).
 */
import {
  type AdapterCall,
  type AdapterDoor,
  type AdapterResult,
  DOOR_PREFIX,
  type DoorCall,
  type DoorItem,
  type DoorKey,
  READY_TIMEOUT_MS,
} from "../protocol/adapter.ts";
import { withTimeout } from "../protocol/with_timeout.ts";
import { CALL_MAX_MS } from "../protocol/limits.ts";
import {
  MAX_PAGE_RESULT_CHARS,
  pageTooLargeWords,
  resultSizeError,
} from "../protocol/call_contract.ts";
import { errorPayload, type HubErrorCode } from "../protocol/errors.ts";
import type { PluginDefinition, ToolDefinition } from "./plugin.ts";
import {
  eventQueued,
  firstQueuedSeq,
  postPageEvent,
  queueItem,
  takeItems,
  toJsonSafe,
} from "./channel.ts";
import { flushLogs, log } from "./log.ts";
import { pluginState } from "./_state.ts";
import { toErrorPayload } from "./tool_error.ts";

export interface AdapterMeta {
  name: string;
  version: string;
  sdkVersion: string;
}

function fail(code: HubErrorCode, message: string) {
  return { ok: false, error: errorPayload(code, message) } as const;
}

async function probe(plugin: PluginDefinition, settings: Record<string, unknown>) {
  pluginState.settings = settings ?? {};
  if (!plugin.isReady) return { ok: true, value: true } as const;
  try {
    const ready = await withTimeout(
      Promise.resolve(plugin.isReady({ settings: pluginState.settings })),
      READY_TIMEOUT_MS,
      false,
    );
    return { ok: true, value: ready === true } as const;
  } catch (error) {
    log.warn(`isReady() threw: ${(error as Error)?.message ?? error}`);
    return { ok: true, value: false } as const;
  }
}

function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.length ? i.path.join(".") : "input"}: ${i.message}`).join(
    "; ",
  );
}

// deno-lint-ignore no-explicit-any
async function runTool(tool: ToolDefinition<any, any>, call: AdapterCall): Promise<AdapterResult> {
  const parsed = tool.input.safeParse(call.input ?? {});
  if (!parsed.success) {
    return fail("INVALID_ARGUMENTS", describeIssues(parsed.error.issues));
  }
  try {
    const value = await tool.handle(parsed.data, {
      settings: pluginState.settings,
      instance: call.instance,
      log,
      reportProgress: ({ progress, total, message }) =>
        postPageEvent({
          kind: "progress",
          dispatchId: call.dispatchId,
          progress: Number(progress),
          ...(total === undefined ? {} : { total: Number(total) }),
          ...(message === undefined ? {} : { message: String(message) }),
        }),
    });
    let result: unknown = value;
    if (tool.output) {
      const checked = tool.output.safeParse(value);
      if (!checked.success) {
        const why = describeIssues(checked.error.issues);
        return fail("INVALID_OUTPUT", `Tool "${tool.name}" returned ${why}`);
      }
      result = checked.data;
    }
    const copy = toJsonSafe(result, Infinity) ?? null;
    // Refused in the page, before it is copied out: the call contract's page limit.
    const size = JSON.stringify(copy).length;
    const tooLarge = resultSizeError(size, MAX_PAGE_RESULT_CHARS, pageTooLargeWords(tool.name));
    if (tooLarge) return { ok: false, error: tooLarge };
    return { ok: true, value: copy };
  } catch (error) {
    return { ok: false, error: toErrorPayload(error) };
  } finally {
    flushLogs();
  }
}

/** The adapter's `isReady` and `call`, as the door runs them. */
export interface Adapter {
  isReady(settings: Record<string, unknown>): Promise<AdapterResult>;
  call(request: AdapterCall): Promise<AdapterResult>;
}

export function createAdapter(plugin: PluginDefinition, meta: AdapterMeta): Adapter {
  pluginState.name = meta.name;
  const tools = new Map(plugin.tools.map((t) => [t.name, t]));
  return {
    isReady: (settings) => probe(plugin, settings),
    call(request) {
      pluginState.settings = request.settings ?? pluginState.settings;
      const tool = tools.get(request.tool);
      if (!tool) {
        const known = [...tools.keys()].join(", ");
        const message = `Plugin "${meta.name}" has no tool "${request.tool}" (tools: ${known})`;
        return Promise.resolve(fail("TOOL_NOT_FOUND", message));
      }
      return runTool(tool, request);
    },
  };
}

/** Runs one call; its answer is queued after every event it caused. Never rejects. */
async function answer(adapter: Adapter, call: DoorCall): Promise<void> {
  let result: AdapterResult;
  try {
    result = await adapter.call(call.request);
  } catch (error) {
    result = { ok: false, error: toErrorPayload(error) };
  }
  queueItem({ kind: "result", id: Number(call.id), result });
}

function randomHex(bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The door of `adapter`, opened by `secret` (protocol/adapter.ts). An exchange waits for each of
 * its calls until it answers or the extension cancels it (the hub ended the call).
 */
export function createDoor(adapter: Adapter, secret: string): AdapterDoor {
  let open = true;
  const allowed = (given: unknown) => open && typeof given === "string" && given === secret;
  /** Ends an exchange's wait for a running call, by call id. */
  const letGo = new Map<number, () => void>();
  const waitFor = (call: DoorCall) =>
    new Promise<void>((resolve) => {
      letGo.set(Number(call.id), resolve);
      void answer(adapter, call).then(resolve);
    }).finally(() => letGo.delete(Number(call.id)));
  return Object.freeze({
    async exchange(given: string, calls: DoorCall[], waitMs: number) {
      if (!allowed(given)) return null;
      const list = Array.isArray(calls) ? calls : [];
      const running = list.map(waitFor);
      // The safety net of a worker that went away without cancelling: the hub's deadline.
      if (running.length > 0) await withTimeout(Promise.all(running), CALL_MAX_MS, []);
      else await eventQueued(Math.min(Math.max(Number(waitMs) || 0, 0), 60_000));
      return open ? takeItems() as DoorItem[] : null;
    },
    nextSeq(given: string) {
      return allowed(given) ? firstQueuedSeq() : null;
    },
    async probe(given: string, settings: Record<string, unknown>) {
      if (!allowed(given)) return null;
      return await adapter.isReady(settings);
    },
    cancel(given: string, ids: number[]) {
      if (!allowed(given)) return false;
      for (const id of Array.isArray(ids) ? ids : []) letGo.get(Number(id))?.();
      return true;
    },
    close(given: string) {
      if (!allowed(given)) return false;
      open = false;
      takeItems();
      return true;
    },
  });
}

/**
 * Registers the plugin's adapter in this page: its door goes on the global object under a random
 * name that no page script can replace, and the bundle returns where it is and its secret.
 */
export function registerAdapter(plugin: PluginDefinition, meta: AdapterMeta): DoorKey {
  const secret = randomHex(32);
  const key = `${DOOR_PREFIX}${meta.name}:${randomHex(16)}`;
  const door = createDoor(createAdapter(plugin, meta), secret);
  Object.defineProperty(globalThis, key, {
    value: door,
    enumerable: false,
    writable: false,
    configurable: false,
  });
  postPageEvent({ kind: "readiness" });
  return { key, secret, plugin: meta.name, sdkVersion: meta.sdkVersion };
}
