import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { resolveTelemetryEndpoint, TELEMETRY_ENDPOINT, TELEMETRY_HOST } from "./endpoint.ts";

Deno.test("the endpoint is the constant unless overridden", () => {
  assertEquals(TELEMETRY_HOST, "telemetry.tabhub.dev");
  assertEquals(resolveTelemetryEndpoint(undefined), { endpoint: TELEMETRY_ENDPOINT });
  assertEquals(resolveTelemetryEndpoint("  "), { endpoint: TELEMETRY_ENDPOINT });
});

Deno.test("an override to loopback or the constant's host is used", () => {
  for (const url of ["http://127.0.0.1:4000/e", "http://localhost:1/", "http://[::1]:9/x"]) {
    assertEquals(resolveTelemetryEndpoint(url), { endpoint: new URL(url).href });
  }
  assertEquals(resolveTelemetryEndpoint(`https://${TELEMETRY_HOST}/v2`), {
    endpoint: `https://${TELEMETRY_HOST}/v2`,
  });
});

Deno.test("an override Deno's permissions would refuse is refused with the reason", () => {
  const cases: [string, RegExp][] = [
    ["https://example.com/events", /may only reach loopback .* or telemetry\.tabhub\.dev/],
    ["https://telemetry.tabhub.dev.evil.com/", /may only reach loopback/],
    ["not a url", /it is not a URL/],
    ["ftp://127.0.0.1/", /http:\/\/ or https:\/\//],
  ];
  for (const [value, why] of cases) {
    const choice = resolveTelemetryEndpoint(value);
    if (!("refused" in choice)) throw new Error(`${value} was accepted`);
    assertMatch(choice.refused, why);
    assertMatch(
      choice.refused,
      /^HUB_TELEMETRY_ENDPOINT=".*" is refused: .*Telemetry sends nothing/,
    );
  }
  const long = resolveTelemetryEndpoint(`https://example.com/${"a".repeat(5000)}`);
  assertEquals("refused" in long && long.refused.length < 400, true);
});
