/**
 * A browser tool's `prepare` in the pipeline: it runs after the argument check and the person's
 * confirmation, before the dispatch; the extension receives the input it answers, `toContent` sees
 * it too, and a refusal is the call's audited error with nothing dispatched.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { hubError } from "../../protocol/errors.ts";
import { BROWSER_GROUP } from "../../protocol/call_contract.ts";
import { defaultConfig, type Permission } from "../../core/config/schema.ts";
import type { ExtensionLink } from "../ws/extension_link_interface.ts";
import { createTabStates } from "../plugins/tab_states.ts";
import { registryOf } from "../plugins/registry.ts";
import { browserTool, registerBrowserTool } from "../browser_tools/browser_tool.ts";
import type { LocalFiles } from "../browser_tools/browser_tool_interface.ts";
import { createCatalog } from "./catalog.ts";
import type { Dispatches } from "./dispatches_interface.ts";
import { createPipeline } from "./pipeline.ts";
import { fakePipelineDeps } from "./_test_pipeline.ts";

const order: string[] = [];

/** A tool over `files.pdf` whose prepare rewrites `path`, or refuses `/no/...`. */
const tool = browserTool({
  name: "browser_prepared",
  displayName: "Prepared",
  description: "test",
  method: "files.pdf",
  async prepare(input, { files }) {
    order.push("prepare");
    if (input.path === undefined) return input;
    return { ...input, path: await files.writable(input.path, ".pdf") };
  },
  toContent(value, { input }) {
    return Promise.resolve([{ type: "text", text: `${JSON.stringify(value)} ${input.path}` }]);
  },
});

const files: LocalFiles = {
  readable: () => Promise.reject(new Error("unused")),
  temporary: () => Promise.reject(new Error("unused")),
  discard: () => Promise.resolve(),
  writable: (path) =>
    path.startsWith("/no/")
      ? Promise.reject(hubError("FILE_NOT_ALLOWED", "outside"))
      : Promise.resolve(`/real${path}`),
  write: () => Promise.resolve(),
};

function setup(permission: Permission) {
  order.length = 0;
  const config = defaultConfig();
  config.permissions[BROWSER_GROUP] = { permission, tools: {} };
  const catalog = createCatalog({
    registry: () => registryOf([]),
    config: () => config,
    skipPermissions: () => false,
    browserTools: [registerBrowserTool(tool)],
    hubTools: [],
  });
  const link = {
    isConnected: () => true,
    notify: () => true,
  } as unknown as ExtensionLink;
  const dispatched: Record<string, unknown>[] = [];
  const dispatches: Dispatches = {
    dispatch(params, options) {
      order.push("dispatch");
      dispatched.push(params.input);
      options?.onReply?.(true);
      return Promise.resolve({ value: { tabId: 4 }, tabId: 4 });
    },
    progress() {},
    active: () => 0,
  };
  const { deps, asked, audited } = fakePipelineDeps(
    { catalog, link, tabs: createTabStates(), dispatches, files },
    { onAsk: () => order.push("ask") },
  );
  const pipeline = createPipeline(deps);
  return { pipeline, dispatched, asked, audited };
}

Deno.test("prepare rewrites the input the extension and toContent receive, after the confirmation", async () => {
  const s = setup("ask");
  const outcome = await s.pipeline.call({
    name: "browser_prepared",
    args: { path: "/home/u/p.pdf" },
  });
  assert(outcome.ok);
  assertEquals(order, ["ask", "prepare", "dispatch"]);
  // The person saw what the agent asked; the extension gets the checked path.
  assertEquals(s.asked[0].parameters, { path: "/home/u/p.pdf" });
  assertEquals(s.dispatched, [{ path: "/real/home/u/p.pdf" }]);
  assertEquals(outcome.content, [{ type: "text", text: '{"tabId":4} /real/home/u/p.pdf' }]);
});

Deno.test("a refusal in prepare is the call's error: audited, nothing dispatched", async () => {
  const s = setup("auto");
  const outcome = await s.pipeline.call({ name: "browser_prepared", args: { path: "/no/p.pdf" } });
  assert(!outcome.ok);
  assertEquals(outcome.error.code, "FILE_NOT_ALLOWED");
  assertEquals(s.dispatched.length, 0);
  assertEquals(s.audited.map((e) => [e.tool, e.success, e.error?.code]), [
    ["browser_prepared", false, "FILE_NOT_ALLOWED"],
  ]);
});

Deno.test("invalid arguments never reach prepare", async () => {
  const s = setup("auto");
  const outcome = await s.pipeline.call({ name: "browser_prepared", args: { path: 5 } });
  assert(!outcome.ok);
  assertEquals(outcome.error.code, "INVALID_ARGUMENTS");
  assertEquals(order, []);
});
