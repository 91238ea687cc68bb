/**
 * The `tools/list` result of each mode, serialized and encoded once per state of the catalog: the
 * catalog returns the same array until its registry or config changes (a reload, an announce, a
 * permission edit), so that array is the key and a new one means a new state. 2,000 tools are
 * about 1.1 MB; each request then only copies the bytes behind its own `id`.
 */
import type { Catalog } from "../calls/catalog_interface.ts";
import { type McpMode, mcpTools } from "./mcp_server.ts";

export class ToolListCache {
  readonly #full = new WeakMap<object, Uint8Array>();
  #gateway: Uint8Array | undefined;

  /** The UTF-8 JSON of `{"tools": [...]}` for `mode`, as of now. */
  bytes(mode: McpMode, catalog: Catalog): Uint8Array {
    if (mode === "gateway") return this.#gateway ??= encode(mcpTools(mode, catalog));
    const state = catalog.list();
    let bytes = this.#full.get(state);
    if (!bytes) {
      bytes = encode(mcpTools(mode, catalog));
      this.#full.set(state, bytes);
    }
    return bytes;
  }
}

function encode(tools: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ tools }));
}
