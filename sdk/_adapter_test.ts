/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import {
  ADAPTER_REGISTRY,
  type AdapterCall,
  type AdapterResult,
  PAGE_EVENT_SOURCE,
  type PageAdapter,
  READY_TIMEOUT_MS,
} from "../protocol/adapter.ts";
import { registerAdapter } from "./_adapter.ts";
import { flushLogs } from "./log.ts";
import { definePlugin, defineTool, type PluginDefinition, type ToolContext } from "./plugin.ts";
import { getSettings } from "./_state.ts";
import { ToolError } from "./tool_error.ts";
import { z } from "./zod.ts";

const META = { name: "demo", version: "1.0.0", sdkVersion: "0.1.0" };
const LEVELS = ["debug", "info", "warn", "error"] as const;

interface Harness {
  /** Messages posted with globalThis.postMessage, as [message, targetOrigin]. */
  posted: [Record<string, unknown>, string][];
  /** Console calls, as [level, ...args]. */
  printed: unknown[][];
}

/**
 * Runs `fn` with postMessage and the console stubbed, then flushes logs (clearing the flush timer),
 * and restores globals and removes the adapter registry.
 */
async function withPage(fn: (h: Harness) => Promise<void> | void): Promise<void> {
  const scope = globalThis as unknown as Record<string, unknown>;
  const postDescriptor = Object.getOwnPropertyDescriptor(globalThis, "postMessage");
  const consoleScope = console as unknown as Record<string, unknown>;
  const originalConsole = LEVELS.map((level) => consoleScope[level]);
  const h: Harness = { posted: [], printed: [] };
  scope.postMessage = (message: Record<string, unknown>, origin: string) =>
    h.posted.push([message, origin]);
  for (const level of LEVELS) {
    consoleScope[level] = (...args: unknown[]) => h.printed.push([level, ...args]);
  }
  try {
    await fn(h);
  } finally {
    flushLogs();
    LEVELS.forEach((level, i) => (consoleScope[level] = originalConsole[i]));
    if (postDescriptor) Object.defineProperty(globalThis, "postMessage", postDescriptor);
    else delete scope.postMessage;
    delete scope[ADAPTER_REGISTRY];
  }
}

const registry = () =>
  (globalThis as unknown as Record<string, Record<string, PageAdapter>>)[ADAPTER_REGISTRY];

/** A tool with an empty input whose handler is `handle`. */
const toolWith = (name: string, handle: (ctx: ToolContext) => unknown) =>
  defineTool({ name, description: "d", input: z.object({}), handle: (_input, ctx) => handle(ctx) });

const events = (h: Harness, kind: string) =>
  h.posted.map(([m]) => m).filter((m) => m.kind === kind);

function request(tool: string, input: Record<string, unknown> = {}): AdapterCall {
  return { tool, input, dispatchId: "d-1", settings: { apiUrl: { default: "https://a.test" } } };
}

const echo = defineTool({
  name: "echo",
  description: "Echoes",
  input: z.object({ text: z.string(), times: z.number().int().default(1) }),
  output: z.object({ said: z.string() }),
  handle: ({ text, times }) => ({ said: text.repeat(times) }),
});

function plugin(extra: Partial<PluginDefinition> = {}): PluginDefinition {
  return definePlugin({ tools: [echo], ...extra });
}

async function callTool(
  tool: PluginDefinition["tools"][number],
  input = {},
): Promise<AdapterResult> {
  return await registerAdapter(plugin({ tools: [tool] }), META).call(request(tool.name, input));
}

// --- registration ---

Deno.test("registerAdapter registers the adapter under globalThis.__hubAdapters[name]", async () => {
  await withPage(() => {
    const adapter = registerAdapter(plugin(), META);
    assert(registry()[META.name] === adapter);
    assertEquals([adapter.plugin, adapter.version, adapter.sdkVersion, adapter.tools], [
      "demo",
      "1.0.0",
      "0.1.0",
      ["echo"],
    ]);
  });
});

Deno.test("registering a newer build of the same plugin replaces the entry", async () => {
  await withPage(() => {
    registerAdapter(plugin(), META);
    const newer = registerAdapter(plugin(), { ...META, version: "1.0.1" });
    assertEquals(Object.keys(registry()), ["demo"]);
    assert(registry().demo === newer);
  });
});

Deno.test("registerAdapter posts a readiness event to the window", async () => {
  await withPage((h) => {
    registerAdapter(plugin(), META);
    assertEquals(h.posted, [[
      { kind: "readiness", plugin: "demo", source: PAGE_EVENT_SOURCE },
      "*",
    ]]);
  });
});

// --- call ---

Deno.test("call returns the handler's result as {ok: true, value}", async () => {
  await withPage(async () => {
    assertEquals(await callTool(echo, { text: "ab", times: 2 }), {
      ok: true,
      value: { said: "abab" },
    });
  });
});

Deno.test("call applies the zod defaults before the handler runs", async () => {
  await withPage(async () => {
    assertEquals(await callTool(echo, { text: "x" }), { ok: true, value: { said: "x" } });
  });
});

Deno.test("call refuses input that fails the zod schema as INVALID_ARGUMENTS", async () => {
  await withPage(async () => {
    const result = await callTool(echo, { text: 5 });
    assert(!result.ok);
    assertEquals([result.error.code, result.error.category, result.error.retryable], [
      "INVALID_ARGUMENTS",
      "validation",
      false,
    ]);
    assertMatch(result.error.message, /^text: /);
  });
});

Deno.test("call names an unknown tool and lists the plugin's tools", async () => {
  await withPage(async () => {
    const result = await registerAdapter(plugin(), META).call(request("nope"));
    assertEquals(result, {
      ok: false,
      error: {
        code: "TOOL_NOT_FOUND",
        message: 'Plugin "demo" has no tool "nope" (tools: echo)',
        category: "not_found",
        retryable: false,
      },
    });
  });
});

Deno.test("call passes settings and the chosen instance to the handler", async () => {
  await withPage(async () => {
    let seen: unknown;
    const probe = toolWith("probe", (ctx) => (seen = [ctx.settings, ctx.instance], null));
    const adapter = registerAdapter(plugin({ tools: [probe] }), META);
    const instance = { name: "default", url: "https://a.test" };
    await adapter.call({ ...request("probe"), instance });
    assertEquals(seen, [{ apiUrl: { default: "https://a.test" } }, instance]);
    assertEquals(getSettings(), { apiUrl: { default: "https://a.test" } });
  });
});

Deno.test("a handler that returns undefined yields the value null", async () => {
  await withPage(async () => {
    assertEquals(await callTool(toolWith("none", () => undefined)), { ok: true, value: null });
  });
});

Deno.test("a thrown ToolError keeps its code, category, retryable flag and details", async () => {
  await withPage(async () => {
    const failing = toolWith("failing", () => {
      throw new ToolError("Log in first", { code: "NOT_LOGGED_IN", category: "auth", details: 1 });
    });
    assertEquals(await callTool(failing), {
      ok: false,
      error: {
        code: "NOT_LOGGED_IN",
        message: "Log in first",
        category: "auth",
        retryable: false,
        details: 1,
      },
    });
  });
});

Deno.test("a thrown plain Error becomes an internal TOOL_FAILED", async () => {
  await withPage(async () => {
    const result = await callTool(toolWith("failing", () => Promise.reject(new Error("kaput"))));
    assert(!result.ok);
    assertEquals([result.error.code, result.error.category, result.error.message], [
      "TOOL_FAILED",
      "internal",
      "kaput",
    ]);
  });
});

Deno.test("a result that does not match the output schema is INVALID_OUTPUT", async () => {
  await withPage(async () => {
    const wrong = defineTool({
      name: "wrong",
      description: "d",
      input: z.object({}),
      output: z.object({ count: z.number() }),
      handle: () => ({ count: "many" }) as unknown as { count: number },
    });
    const result = await callTool(wrong);
    assert(!result.ok);
    assertEquals([result.error.code, result.error.category], ["INVALID_OUTPUT", "internal"]);
    assertMatch(result.error.message, /^Tool "wrong" returned count: /);
  });
});

// --- events ---

Deno.test("reportProgress posts a progress event with the call's dispatch id", async () => {
  await withPage(async (h) => {
    await callTool(toolWith("slow", (ctx) => {
      ctx.reportProgress({ progress: 1, total: 4, message: "first" });
      ctx.reportProgress({ progress: 2 });
      return null;
    }));
    const base = { kind: "progress", plugin: "demo", dispatchId: "d-1", source: PAGE_EVENT_SOURCE };
    assertEquals(events(h, "progress"), [
      { ...base, progress: 1, total: 4, message: "first" },
      { ...base, progress: 2 },
    ]);
  });
});

Deno.test("log calls in a handler are posted as one batch when the call ends", async () => {
  await withPage(async (h) => {
    await callTool(toolWith("chatty", (ctx) => {
      ctx.log.info("fetching", { page: 1 });
      ctx.log.error("failed once");
      return null;
    }));
    const batches = events(h, "log");
    assertEquals(batches.length, 1);
    const entries = batches[0].entries as Record<string, unknown>[];
    assertEquals(entries.map((e) => [e.level, e.message, e.data]), [
      ["info", "fetching", { page: 1 }],
      ["error", "failed once", undefined],
    ]);
    assert(entries.every((e) => typeof e.timestamp === "number"));
  });
});

Deno.test("log calls are mirrored to the page console with the plugin prefix", async () => {
  await withPage(async (h) => {
    await callTool(toolWith("chatty", (ctx) => ctx.log.warn("careful")));
    assertEquals(h.printed, [["warn", "[hub:demo]", "careful"]]);
  });
});

// --- isReady ---

Deno.test("isReady is true for a plugin without an isReady function", async () => {
  await withPage(async () => {
    assertEquals(await registerAdapter(plugin(), META).isReady({}), { ok: true, value: true });
  });
});

Deno.test("isReady reports true and false answers", async () => {
  await withPage(async () => {
    const yes = registerAdapter(plugin({ isReady: () => Promise.resolve(true) }), META);
    assertEquals(await yes.isReady({}), { ok: true, value: true });
    const no = registerAdapter(plugin({ isReady: () => false }), META);
    assertEquals(await no.isReady({}), { ok: true, value: false });
  });
});

Deno.test("isReady treats a truthy answer that is not true as not ready", async () => {
  await withPage(async () => {
    const adapter = registerAdapter(plugin({ isReady: () => "yes" as unknown as boolean }), META);
    assertEquals(await adapter.isReady({}), { ok: true, value: false });
  });
});

Deno.test("isReady passes the settings it is given to the plugin", async () => {
  await withPage(async () => {
    let seen: unknown;
    const adapter = registerAdapter(
      plugin({ isReady: ({ settings }) => (seen = settings, true) }),
      META,
    );
    await adapter.isReady({ mode: "fast" });
    assertEquals(seen, { mode: "fast" });
  });
});

Deno.test("isReady that throws resolves to not ready and logs a warning", async () => {
  await withPage(async (h) => {
    const adapter = registerAdapter(
      plugin({
        isReady: () => {
          throw new Error("no session");
        },
      }),
      META,
    );
    assertEquals(await adapter.isReady({}), { ok: true, value: false });
    flushLogs();
    const entries = events(h, "log")[0].entries as { level: string; message: string }[];
    assertEquals(entries.map((e) => [e.level, e.message]), [[
      "warn",
      "isReady() threw: no session",
    ]]);
  });
});

Deno.test("isReady that never answers resolves to not ready after the 5 s limit", async () => {
  await withPage(async () => {
    const adapter = registerAdapter(
      plugin({ isReady: () => new Promise<boolean>(() => {}) }),
      META,
    );
    const started = Date.now();
    assertEquals(await adapter.isReady({}), { ok: true, value: false });
    assert(Date.now() - started >= READY_TIMEOUT_MS - 50);
  });
});

Deno.test("a result over the size limit is a RESULT_TOO_LARGE error, not cut data", async () => {
  const big = defineTool({
    name: "big",
    description: "Returns too much",
    input: z.object({}),
    handle: () => ({ text: "x".repeat(5_000_001) }),
  });
  await withPage(async () => {
    const result = await callTool(big);
    assert(!result.ok);
    assertEquals(result.error.code, "RESULT_TOO_LARGE");
    // validation, like the extension's RESULT_TOO_LARGE: a call that asks for less can fit.
    assertEquals([result.error.category, result.error.retryable], ["validation", false]);
    assertMatch(result.error.message, /limit is 5 MB/);
  });
});

Deno.test("with an output schema, the agent gets the parsed output (extra keys stripped)", async () => {
  const extra = defineTool({
    name: "extra",
    description: "Returns an extra key",
    input: z.object({}),
    output: z.object({ kept: z.number() }),
    handle: () => ({ kept: 1, dropped: 2 }) as { kept: number },
  });
  await withPage(async () => {
    assertEquals(await callTool(extra), { ok: true, value: { kept: 1 } });
  });
});
