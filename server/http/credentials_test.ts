import { assertEquals } from "../../tests/helpers/assert.ts";
import { carriesSecret, readCredentials } from "./credentials.ts";

const SECRET = "a".repeat(64);

Deno.test("a connection is trusted by the Bearer secret or the extension's subprotocol pair only", () => {
  const cases: [string | undefined, string | undefined, string | undefined, boolean][] = [
    [`Bearer ${SECRET}`, undefined, SECRET, true],
    [`bearer   ${SECRET} `, undefined, SECRET, true],
    [undefined, `hub, ${SECRET}`, SECRET, true],
    [undefined, `hub,${SECRET}`, SECRET, true],
    [`Bearer ${SECRET}x`, undefined, SECRET, false],
    [`Basic ${SECRET}`, undefined, SECRET, false],
    [`Bearer ${SECRET}, Bearer ${SECRET}`, undefined, SECRET, false], // two headers
    [undefined, `other, ${SECRET}`, SECRET, false],
    [undefined, "hub", SECRET, false],
    [undefined, undefined, SECRET, false],
    [`Bearer ${SECRET}`, `hub, ${SECRET}`, undefined, false], // no secret configured
  ];
  for (const [authorization, wsProtocol, secret, expected] of cases) {
    assertEquals(
      carriesSecret(authorization, wsProtocol, secret),
      expected,
      JSON.stringify([authorization, wsProtocol, secret]),
    );
  }
});

Deno.test("readCredentials reads both headers once; it judges nothing", () => {
  assertEquals(readCredentials(null, null), {
    hasAuthorization: false,
    bearer: undefined,
    offersHubProtocol: false,
    wsSecret: undefined,
  });
  assertEquals(readCredentials(`bearer  ${SECRET} `, `hub , ${SECRET}, x`), {
    hasAuthorization: true,
    bearer: SECRET,
    offersHubProtocol: true,
    wsSecret: SECRET,
  });
  assertEquals(readCredentials("Basic abc", "hub"), {
    hasAuthorization: true,
    bearer: undefined,
    offersHubProtocol: true,
    wsSecret: undefined,
  });
  assertEquals(readCredentials("Bearer", "hub, ").wsSecret, "");
});
