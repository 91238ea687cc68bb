import { assertEquals } from "../../tests/helpers/assert.ts";
import { changeReason, entryIn } from "./reason.ts";

const http = (port: number, secret: string, path = "/mcp") => ({
  type: "http",
  url: `http://127.0.0.1:${port}${path}`,
  headers: { Authorization: `Bearer ${secret}` },
});

Deno.test("changeReason: secret, port, mode, command", () => {
  assertEquals(changeReason(http(9515, "old"), http(9515, "new")), "secret changed");
  assertEquals(changeReason(http(9515, "s"), http(9600, "s")), "port changed");
  assertEquals(changeReason(http(9515, "s"), http(9515, "s", "/mcp/gateway")), "mode changed");
  const stdio = { command: "/bin/hub", args: ["start", "--stdio", "--port", "9515"] };
  assertEquals(changeReason(http(9515, "s"), stdio), "mode changed");
  assertEquals(
    changeReason(stdio, { ...stdio, args: ["start", "--stdio", "--port", "9600"] }),
    "port changed",
  );
  assertEquals(changeReason(stdio, { ...stdio, command: "/bin/deno" }), "command changed");
  assertEquals(
    changeReason(stdio, { ...stdio, args: [...stdio.args, "--gateway"] }),
    "mode changed",
  );
  assertEquals(changeReason(undefined, stdio), "entry changed");
});

Deno.test("entryIn: reads the entry from JSONC, VS Code and TOML texts", () => {
  assertEquals(
    entryIn('{ // c\n "mcpServers": { "hub": { "url": "u" } } }', "mcpServers", "hub"),
    { url: "u" },
  );
  assertEquals(entryIn('{ "servers": { "hub": { "url": "u" } } }', "vscodeMcp", "hub"), {
    url: "u",
  });
  assertEquals(
    { ...entryIn('[mcp_servers.hub]\nurl = "u"\n[other]\nx = 1\n', "codexToml", "hub") },
    { url: "u" },
  );
  assertEquals(entryIn("not [toml", "codexToml", "hub"), undefined);
});
