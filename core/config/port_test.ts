import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { parsePort, resolveCliPort, resolveServerPort } from "./port.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("CLI port: flag, then HUB_PORT, then config, then 9515", () => {
  assertEquals(
    resolveCliPort({ flag: "1000", env: env({ HUB_PORT: "2000" }), configPort: 3000 }),
    1000,
  );
  assertEquals(resolveCliPort({ env: env({ HUB_PORT: "2000" }), configPort: 3000 }), 2000);
  assertEquals(resolveCliPort({ env: env({ PORT: "4000" }), configPort: 3000 }), 3000);
  assertEquals(resolveCliPort({ env: env({}) }), 9515);
});

Deno.test("server port: flag, then PORT, then the CLI chain; 0 allowed", () => {
  assertEquals(resolveServerPort({ flag: "0", env: env({ PORT: "4000" }) }), 0);
  assertEquals(resolveServerPort({ env: env({ PORT: "4000", HUB_PORT: "2000" }) }), 4000);
  assertEquals(resolveServerPort({ env: env({ HUB_PORT: "2000" }), configPort: 3000 }), 2000);
  assertEquals(resolveServerPort({ env: env({}), configPort: 3000 }), 3000);
});

Deno.test("bad ports name their source and the valid range", () => {
  assertThrows(() => parsePort("0", "--port"), /--port "0" is not a valid port: .* 1 to 65535/);
  assertThrows(() => parsePort("65536", "port"), /1 to 65535/);
  assertThrows(() => parsePort("12ab", "HUB_PORT"), /HUB_PORT "12ab"/);
  assertThrows(() => parsePort("-1", "PORT", true), /0 to 65535/);
  assertThrows(() => resolveCliPort({ env: env({ HUB_PORT: "x" }) }), /HUB_PORT/);
  assertEquals(parsePort(" 80 ", "--port"), 80);
});
