/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import {
  type AdapterCall,
  type AdapterDoor,
  type AdapterResult,
  DOOR_PREFIX,
  type DoorItem,
  READY_TIMEOUT_MS,
} from "../protocol/adapter.ts";
import { createAdapter, registerAdapter } from "./_adapter.ts";
import { takeItems } from "./channel.ts";
import { flushLogs } from "./log.ts";
import { definePlugin, defineTool, type PluginDefinition, type ToolContext } from "./plugin.ts";
import { getSettings } from "./_state.ts";
import { notifyReadinessChanged } from "./readiness.ts";
import { ToolError } from "./tool_error.ts";
import { z } from "./zod.ts";

const META = { name: "demo", version: "1.0.0", sdkVersion: "0.1.0" };
const LEVELS = ["debug", "info", "warn", "error"] as const;

interface Harness {
  /** Messages posted with globalThis.postMessage (none: the outbox is private). */
  posted: [Record<string, unknown>, string][];
  /** What the adapter queued for the extension, without the numbers. */
  queued(): Record<string, unknown>[];
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
  takeItems();
  const h: Harness = {
    posted: [],
    printed: [],
    queued: () => takeItems().map(({ seq: _, ...item }) => item),
  };
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
    takeItems();
  }
}

/** The doors registered on globalThis (their names). */
const doorNames = () =>
  Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith(DOOR_PREFIX));

/** A tool with an empty input whose handler is `handle`. */
const toolWith = (name: string, handle: (ctx: ToolContext) => unknown) =>
  defineTool({ name, description: "d", input: z.object({}), handle: (_input, ctx) => handle(ctx) });

const events = (h: Harness, kind: string) => h.queued().filter((m) => m.kind === kind);

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
  return await createAdapter(plugin({ tools: [tool] }), META).call(request(tool.name, input));
}

// --- registration ---

Deno.test("registerAdapter puts a door under a random name no page script can replace", async () => {
  await withPage((h) => {
    const before = doorNames();
    const key = registerAdapter(plugin(), META);
    assertEquals([key.plugin, key.sdkVersion], ["demo", "0.1.0"]);
    assertMatch(key.key, /^__hubAdapter:demo:[0-9a-f]{32}$/);
    assertMatch(key.secret, /^[0-9a-f]{64}$/);
    assertEquals(doorNames(), [...before, key.key]);
    const found = Object.getOwnPropertyDescriptor(globalThis, key.key)!;
    assertEquals([found.enumerable, found.writable, found.configurable], [false, false, false]);
    assert(Object.isFrozen(found.value));
    // Registering asks the extension to probe readiness, through the private outbox.
    assertEquals(h.queued(), [{ kind: "readiness" }]);
    assertEquals(h.posted, []);
    // A second build gets a door of its own.
    assert(registerAdapter(plugin(), META).key !== key.key);
  });
});

Deno.test("the door does nothing without its secret; with it, it runs calls and hands out their events in order", async () => {
  await withPage(async () => {
    const { key, secret } = registerAdapter(
      plugin({
        tools: [toolWith("chatty", (ctx) => {
          ctx.reportProgress({ progress: 1 });
          ctx.log.info("hi");
          return "done";
        })],
      }),
      META,
    );
    const door = (globalThis as unknown as Record<string, AdapterDoor>)[key];
    const call = { id: 7, request: request("chatty") };
    assertEquals(await door.exchange("guess", [call], 0), null);
    assertEquals(await door.probe("guess", {}), null);
    assertEquals(door.close("guess"), false);
    takeItems();
    const items = (await door.exchange(secret, [call], 0))!;
    assertEquals(items.map((i: DoorItem) => i.kind), ["progress", "log", "result"]);
    assert(items.every((item, i) => i === 0 || item.seq > items[i - 1].seq));
    assertEquals(items[2], {
      kind: "result",
      id: 7,
      result: { ok: true, value: "done" },
      seq: items[2].seq,
    });
    assertEquals(await door.probe(secret, {}), { ok: true, value: true });
    assert(door.close(secret));
    assertEquals(await door.exchange(secret, [call], 0), null);
  });
});

Deno.test("a wait exchange returns once an event is queued, or after its time", async () => {
  await withPage(async () => {
    const { key, secret } = registerAdapter(plugin(), META);
    const door = (globalThis as unknown as Record<string, AdapterDoor>)[key];
    takeItems();
    assertEquals(await door.exchange(secret, [], 10), []);
    const waiting = door.exchange(secret, [], 60_000);
    setTimeout(() => notifyReadinessChanged(), 5);
    assertEquals((await waiting)!.map((i) => i.kind), ["readiness"]);
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
    const result = await createAdapter(plugin(), META).call(request("nope"));
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
    const adapter = createAdapter(plugin({ tools: [probe] }), META);
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

Deno.test("reportProgress queues a progress event with the call's dispatch id", async () => {
  await withPage(async (h) => {
    await callTool(toolWith("slow", (ctx) => {
      ctx.reportProgress({ progress: 1, total: 4, message: "first" });
      ctx.reportProgress({ progress: 2 });
      return null;
    }));
    const base = { kind: "progress", dispatchId: "d-1" };
    assertEquals(events(h, "progress"), [
      { ...base, progress: 1, total: 4, message: "first" },
      { ...base, progress: 2 },
    ]);
  });
});

Deno.test("log calls in a handler are queued as one batch when the call ends", async () => {
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
    assertEquals(await createAdapter(plugin(), META).isReady({}), { ok: true, value: true });
  });
});

Deno.test("isReady reports true and false answers", async () => {
  await withPage(async () => {
    const yes = createAdapter(plugin({ isReady: () => Promise.resolve(true) }), META);
    assertEquals(await yes.isReady({}), { ok: true, value: true });
    const no = createAdapter(plugin({ isReady: () => false }), META);
    assertEquals(await no.isReady({}), { ok: true, value: false });
  });
});

Deno.test("isReady treats a truthy answer that is not true as not ready", async () => {
  await withPage(async () => {
    const adapter = createAdapter(plugin({ isReady: () => "yes" as unknown as boolean }), META);
    assertEquals(await adapter.isReady({}), { ok: true, value: false });
  });
});

Deno.test("isReady passes the settings it is given to the plugin", async () => {
  await withPage(async () => {
    let seen: unknown;
    const adapter = createAdapter(
      plugin({ isReady: ({ settings }) => (seen = settings, true) }),
      META,
    );
    await adapter.isReady({ mode: "fast" });
    assertEquals(seen, { mode: "fast" });
  });
});

Deno.test("isReady that throws resolves to not ready and logs a warning", async () => {
  await withPage(async (h) => {
    const adapter = createAdapter(
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
    const adapter = createAdapter(
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
    assertEquals(
      result.error.message,
      'Tool "big" returned 5.0 MB of JSON; the limit is 5 MB. ' +
        "Return less (page through results, or summarize).",
    );
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

Deno.test("nextSeq tells where the door counts from: its oldest item not handed out yet", async () => {
  await withPage(async () => {
    const { key, secret } = registerAdapter(plugin(), META);
    const door = (globalThis as unknown as Record<string, AdapterDoor>)[key];
    assertEquals(door.nextSeq("guess"), null);
    const queued = door.nextSeq(secret)!;
    const items = (await door.exchange(secret, [], 0))!;
    assertEquals(items[0].seq, queued);
    const next = door.nextSeq(secret)!;
    assertEquals(next, items[items.length - 1].seq + 1);
    notifyReadinessChanged();
    assertEquals((await door.exchange(secret, [], 0))!.map((i) => i.seq), [next]);
  });
});

Deno.test("cancel ends an exchange's wait for a call the extension let go of; its answer goes out later", async () => {
  await withPage(async () => {
    let finish!: (value: string) => void;
    const { key, secret } = registerAdapter(
      plugin({
        tools: [toolWith("slow", () => new Promise<string>((resolve) => (finish = resolve)))],
      }),
      META,
    );
    const door = (globalThis as unknown as Record<string, AdapterDoor>)[key];
    takeItems();
    const exchange = door.exchange(secret, [{ id: 3, request: request("slow") }], 0);
    await Promise.resolve();
    assertEquals(door.cancel!("guess", [3]), false);
    assert(door.cancel!(secret, [3]));
    assertEquals(await exchange, []);
    finish("late");
    await new Promise((resolve) => setTimeout(resolve, 0));
    const later = (await door.exchange(secret, [], 0))!;
    assertEquals(later.map((i: DoorItem) => [i.kind, (i as { id?: number }).id]), [["result", 3]]);
  });
});
