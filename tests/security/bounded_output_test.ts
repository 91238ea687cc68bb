/**
 * Security: everything the hub answers or stores about a hostile call stays small. A 2 MB body of
 * a million wrong-typed values gets a short error (on a tool that is off, and on one that is on),
 * a short audit line, and never pushes earlier audit history out of `audit.log`/`audit.log.1`.
 * A body over the size limit is refused with 413 (also when it is sent chunked, without a
 * Content-Length) and the refused call is audited. MCP `arguments` that are not an object get
 * -32602 Invalid params with a short message.
 */
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolResultSchema,
  EmptyResultSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { eventually, writeConfig } from "../helpers/hub_api.ts";
import { type RunningHub, startHub, tempConfigDir } from "../helpers/hub_process.ts";
import { connectMcp } from "../helpers/mcp_client.ts";
import { writePluginFolder } from "../helpers/plugin_cli.ts";

const TAGS_SCHEMA = {
  type: "object",
  properties: { tags: { type: "array", items: { type: "string" } } },
  required: ["tags"],
};
/** Answers and audit lines stay under these, whatever the body held. */
const MAX_RESPONSE_BYTES = 8 * 1024;
const MAX_AUDIT_LINE_BYTES = 4 * 1024;
/** `{"arguments":{"tags":[0,0,…]}}`: about 2 MB, a million values of the wrong type. */
const BAD_TAGS_BODY = `{"arguments":{"tags":[${new Array(1_000_000).fill("0").join(",")}]}}`;

async function withTagHub(fn: (hub: RunningHub) => Promise<void>): Promise<void> {
  const dir = await tempConfigDir();
  const plugin = await writePluginFolder(join(dir, "plugins", "tagger"), {
    name: "tagger",
    tools: [
      { name: "tag", inputSchema: TAGS_SCHEMA },
      { name: "tag_off", inputSchema: TAGS_SCHEMA },
    ],
  });
  await writeConfig(dir, {
    localPlugins: [plugin],
    permissions: { tagger: { permission: "auto", tools: { tag_off: "off" } } },
  });
  const hub = await startHub({ configDir: dir });
  try {
    await fn(hub);
  } finally {
    assertEquals(await hub.stop(), 0, hub.output().slice(-2000));
    await Deno.remove(dir, { recursive: true });
  }
}

async function post(hub: RunningHub, tool: string, body: BodyInit) {
  const res = await fetch(`${hub.url}/tools/${tool}/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return { status: res.status, text };
}

async function auditLines(hub: RunningHub): Promise<string[]> {
  const read = (name: string) => Deno.readTextFile(join(hub.configDir, name)).catch(() => "");
  const text = (await read("audit.log.1")) + (await read("audit.log"));
  return text.split("\n").filter((line) => line !== "");
}

/** Waits until `audit.log` holds `count` lines for `tool` (entries are written in batches). */
async function waitForAudit(hub: RunningHub, tool: string, count: number): Promise<string[]> {
  let lines: string[] = [];
  await eventually(async () => {
    lines = (await auditLines(hub)).filter((l) => JSON.parse(l).tool === tool);
    return lines.length >= count;
  }, () => `${count} audit lines for ${tool}, got ${lines.length}`);
  return lines;
}

Deno.test("a million wrong values get a short error and a short audit line, off or on", async () => {
  await withTagHub(async (hub) => {
    const off = await post(hub, "tagger__tag_off", BAD_TAGS_BODY);
    assert(off.text.length < MAX_RESPONSE_BYTES, `off tool answered ${off.text.length} bytes`);
    assertEquals(off.status, 403, off.text);
    assertEquals(JSON.parse(off.text).structuredContent.error.code, "PERMISSION_OFF");

    const on = await post(hub, "tagger__tag", BAD_TAGS_BODY);
    assert(on.text.length < MAX_RESPONSE_BYTES, `auto tool answered ${on.text.length} bytes`);
    assertEquals(on.status, 400, on.text);
    const error = JSON.parse(on.text).structuredContent.error;
    assertEquals(error.code, "INVALID_ARGUMENTS");
    assertMatch(error.message, /tags\.0: must be string/);
    assert(error.details.errors.length <= 6, JSON.stringify(error.details));

    for (const tool of ["tagger__tag_off", "tagger__tag"]) {
      const [line] = await waitForAudit(hub, tool, 1);
      assert(line.length < MAX_AUDIT_LINE_BYTES, `audit line of ${tool}: ${line.length} bytes`);
    }
  });
});

Deno.test("oversized calls never push earlier audit history out of the log", async () => {
  await withTagHub(async (hub) => {
    // The first entry: a plain refused call.
    assertEquals((await post(hub, "tagger__tag_off", '{"arguments":{"tags":[]}}')).status, 403);
    await waitForAudit(hub, "tagger__tag_off", 1);
    for (let i = 0; i < 4; i++) {
      assertEquals((await post(hub, "tagger__tag", BAD_TAGS_BODY)).status, 400);
    }
    await waitForAudit(hub, "tagger__tag", 4);
    const first = (await auditLines(hub)).map((l) => JSON.parse(l))
      .filter((e) => e.tool === "tagger__tag_off");
    assertEquals(first.length, 1, "the first call is still in audit.log or audit.log.1");
  });
});

Deno.test("a body over the limit is 413 and the refused call is audited", async () => {
  await withTagHub(async (hub) => {
    const big = `{"arguments":{"tags":["${"x".repeat(11 * 1024 * 1024)}"]}}`;
    const declared = await post(hub, "tagger__tag", big);
    assertEquals(declared.status, 413, declared.text.slice(0, 500));
    assert(declared.text.length < MAX_RESPONSE_BYTES);
    const [line] = await waitForAudit(hub, "tagger__tag", 1);
    const entry = JSON.parse(line);
    assertEquals(entry.success, false);
    assertMatch(entry.error.message, /over \d+ bytes/);
  });
});

Deno.test("a chunked body over the limit is cut off at the limit with 413", async () => {
  await withTagHub(async (hub) => {
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Up to 64 MB: far more than the limit, so only a reader that stops at the cap answers.
        if (sent++ < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const reply = await post(hub, "tagger__tag", stream).catch((e) => ({
      status: 0,
      text: String(e),
    }));
    assertEquals(reply.status, 413, reply.text.slice(0, 500));
    assert(sent < 64, `the hub read all ${sent} MB before answering`);
    await waitForAudit(hub, "tagger__tag", 1);
  });
});

Deno.test("MCP arguments that are not an object get -32602 with a short message", async () => {
  await withTagHub(async (hub) => {
    for (const path of ["/mcp", "/mcp/gateway"] as const) {
      const client = await connectMcp(hub.url, hub.secret, path);
      try {
        const name = path === "/mcp" ? "tagger__tag" : "hub_call";
        const error = await client.request(
          { method: "tools/call", params: { name, arguments: [1, 2, 3] } },
          CallToolResultSchema,
        ).then(() => undefined, (e: unknown) => e);
        assert(error instanceof McpError, `${path}: ${error}`);
        assertEquals(error.code, -32602, `${path}: ${error.message}`);
        assertMatch(error.message, /arguments must be a JSON object/);
        assert(error.message.length < 500, error.message);

        // Methods the SDK answers itself: a params mismatch is -32602 too, not a raw zod dump.
        const level = await client.request(
          { method: "logging/setLevel", params: { level: [1, 2, 3] } },
          EmptyResultSchema,
        ).then(() => undefined, (e: unknown) => e);
        assert(level instanceof McpError, `${path}: ${level}`);
        assertEquals(level.code, -32602, `${path}: ${level.message}`);
        assertMatch(
          level.message,
          /Invalid params: logging\/setLevel: params\.level: Invalid option/,
        );
        assert(level.message.length < 500, level.message);
      } finally {
        await client.close();
      }
    }
  });
});
