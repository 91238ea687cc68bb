/**
 * The page-side runtime of a built adapter: `hub-plugin build` generates an entry that calls
 * `registerAdapter` with the plugin and its manifest facts, and bundles it as an IIFE. The
 * extension then calls the registered adapter (protocol/adapter.ts).
 */
import {
  ADAPTER_REGISTRY,
  type AdapterCall,
  type AdapterResult,
  type PageAdapter,
  READY_TIMEOUT_MS,
} from "../protocol/adapter.ts";
import { withTimeout } from "../protocol/with_timeout.ts";
import { hubError, type HubErrorCode } from "../protocol/errors.ts";
import type { PluginDefinition, ToolDefinition } from "./plugin.ts";
import { postPageEvent, toJsonSafe } from "./channel.ts";
import { flushLogs, log } from "./log.ts";
import { pluginState } from "./_state.ts";
import { toErrorPayload } from "./tool_error.ts";

/** Results above this many characters of JSON are refused (the hub's WebSocket frames cap at 10 MB). */
export const MAX_RESULT_CHARS = 5_000_000;

export interface AdapterMeta {
  name: string;
  version: string;
  sdkVersion: string;
}

function fail(code: HubErrorCode, message: string) {
  return { ok: false, error: hubError(code, message) } as const;
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
          plugin: pluginState.name,
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
    const size = JSON.stringify(copy).length;
    if (size > MAX_RESULT_CHARS) {
      const mb = (size / 1e6).toFixed(1);
      return fail(
        "RESULT_TOO_LARGE",
        `Tool "${tool.name}" returned ${mb} MB of JSON; the limit is ${
          MAX_RESULT_CHARS / 1e6
        } MB. ` +
          `Return less (page through results, or summarize).`,
      );
    }
    return { ok: true, value: copy };
  } catch (error) {
    return { ok: false, error: toErrorPayload(error) };
  } finally {
    flushLogs();
  }
}

/** Registers the plugin's adapter in this page, replacing an older build of the same plugin. */
export function registerAdapter(plugin: PluginDefinition, meta: AdapterMeta): PageAdapter {
  pluginState.name = meta.name;
  const tools = new Map(plugin.tools.map((t) => [t.name, t]));
  const adapter: PageAdapter = {
    plugin: meta.name,
    version: meta.version,
    sdkVersion: meta.sdkVersion,
    tools: [...tools.keys()],
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
  const scope = globalThis as unknown as Record<string, Record<string, PageAdapter>>;
  const registry = scope[ADAPTER_REGISTRY] ?? (scope[ADAPTER_REGISTRY] = {});
  registry[meta.name] = adapter;
  postPageEvent({ kind: "readiness", plugin: meta.name });
  return adapter;
}
