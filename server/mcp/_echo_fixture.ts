/**
 * Test fixture of the MCP tests: a catalog with one tool (`demo__echo`) and a pipeline that echoes
 * its arguments; only what the MCP server object uses.
 */
import type { Catalog } from "../calls/catalog_interface.ts";
import type { Pipeline } from "../calls/pipeline_interface.ts";

export const echoCatalog = {
  list: () => [{ name: "demo__echo", description: "Echo", inputSchema: { type: "object" } }],
  groups: () => ["demo"],
  groupError: () => undefined,
} as unknown as Catalog;

export const echoPipeline: Pipeline = {
  call: (request) => Promise.resolve({ ok: true, value: { echo: request.args } } as never),
};
