/** Generated plugins for benchmarks: 100 plugins × 20 tools with realistic schemas. */
import { join } from "node:path";
import { SDK_VERSION } from "../protocol/version.ts";
import { ADAPTER_CONTRACT } from "../protocol/plugin_manifest.ts";

export const PLUGINS = 100;
export const TOOLS = 20;
/** A built adapter with zod is ~380 KB; the generated ones have that size too. */
export const ADAPTER = `/* generated */(()=>{${"x".repeat(380 * 1024)}})();\n`;

export function toolSchema(p: number, t: number) {
  return {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, description: `search text ${p}.${t}` },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
      mode: { type: "string", enum: ["fast", "full", `m${t}`] },
      tags: { type: "array", items: { type: "string" } },
      [`option_${t}`]: { type: "boolean" },
    },
    required: ["query"],
  };
}

export async function writePlugin(root: string, p: number): Promise<string> {
  const name = `bench-${p}`;
  const dir = join(root, name);
  await Deno.mkdir(join(dir, "dist"), { recursive: true });
  const pkg = {
    name: `hub-plugin-${name}`,
    version: "1.0.0",
    hub: {
      displayName: `Bench ${p}`,
      urlPatterns: [`*://bench${p}.example.com/*`],
      configSchema: { instances: { type: "url", label: "Instances" } },
    },
  };
  const tools = Array.from({ length: TOOLS }, (_, t) => ({
    name: `tool_${t}`,
    displayName: `Tool ${t}`,
    description: `Benchmark tool ${t} of plugin ${p}`,
    inputSchema: toolSchema(p, t),
  }));
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(pkg));
  await Deno.writeTextFile(
    join(dir, "dist/tools.json"),
    JSON.stringify({
      sdkVersion: SDK_VERSION,
      adapterContract: ADAPTER_CONTRACT,
      plugin: name,
      version: "1.0.0",
      tools,
    }),
  );
  await Deno.writeTextFile(join(dir, "dist/adapter.iife.js"), ADAPTER + `// ${p}\n`);
  return dir;
}
