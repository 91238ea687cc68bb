import { assertEquals } from "../../tests/helpers/assert.ts";
import { telemetrySettingsFromEnv } from "./settings.ts";
import { TELEMETRY_ENDPOINT } from "./endpoint.ts";

Deno.test("the settings come from the environment once", () => {
  const env: Record<string, string> = {
    DO_NOT_TRACK: "1",
    HUB_TELEMETRY_DEBUG: "1",
    HUB_TELEMETRY_ENDPOINT: "http://127.0.0.1:4000/e",
  };
  assertEquals(telemetrySettingsFromEnv((n) => env[n]), {
    env: { HUB_TELEMETRY_DISABLED: undefined, DO_NOT_TRACK: "1" },
    debug: true,
    endpoint: { endpoint: "http://127.0.0.1:4000/e" },
  });
  assertEquals(telemetrySettingsFromEnv(() => undefined), {
    env: { HUB_TELEMETRY_DISABLED: undefined, DO_NOT_TRACK: undefined },
    debug: false,
    endpoint: { endpoint: TELEMETRY_ENDPOINT },
  });
});
