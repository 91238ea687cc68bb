import { assertEquals } from "../../tests/helpers/assert.ts";
import { envFlag, telemetryDecision, telemetryEnv } from "./decision.ts";

Deno.test("telemetryDecision: every combination of config and environment", () => {
  const values = [undefined, "", "1", "0", "true"];
  for (const config of [true, false]) {
    for (const disabled of values) {
      for (const dnt of values) {
        const d = telemetryDecision(config, {
          HUB_TELEMETRY_DISABLED: disabled,
          DO_NOT_TRACK: dnt,
        });
        const label = `config ${config}, HUB_TELEMETRY_DISABLED=${disabled}, DO_NOT_TRACK=${dnt}`;
        const disabledSet = disabled !== undefined && disabled !== "";
        const disabledYes = disabled === "1" || disabled === "true";
        const dntYes = dnt === "1" || dnt === "true";
        const expected = !config
          ? "config"
          : disabledYes
          ? "HUB_TELEMETRY_DISABLED"
          : disabledSet
          ? "HUB_TELEMETRY_DISABLED=0"
          : dntYes
          ? "DO_NOT_TRACK"
          : "default";
        assertEquals(d.reason, expected, label);
        const on = expected === "default" || expected === "HUB_TELEMETRY_DISABLED=0";
        assertEquals(d.enabled, on, label);
        assertEquals(d.text.length > 0 && d.text.length < 120, true, label);
      }
    }
  }
});

Deno.test("telemetryDecision: the cases people meet, with their text", () => {
  assertEquals(telemetryDecision(true, {}), {
    enabled: true,
    reason: "default",
    text: "on by default",
  });
  assertEquals(telemetryDecision(true, { DO_NOT_TRACK: "1" }).text, "DO_NOT_TRACK=1 is set");
  assertEquals(
    telemetryDecision(true, { HUB_TELEMETRY_DISABLED: "0", DO_NOT_TRACK: "1" }).enabled,
    true,
  );
  assertEquals(
    telemetryDecision(false, { HUB_TELEMETRY_DISABLED: "0" }).enabled,
    false,
    "an environment variable never turns on what config.json turned off",
  );
  assertEquals(telemetryDecision(true, { HUB_TELEMETRY_DISABLED: " TRUE " }).enabled, false);
});

Deno.test("envFlag and telemetryEnv", () => {
  assertEquals([envFlag("1"), envFlag("True"), envFlag("0"), envFlag("yes"), envFlag(undefined)], [
    true,
    true,
    false,
    false,
    false,
  ]);
  const env: Record<string, string> = { DO_NOT_TRACK: "1", OTHER: "x" };
  assertEquals(telemetryEnv((n) => env[n]), {
    HUB_TELEMETRY_DISABLED: undefined,
    DO_NOT_TRACK: "1",
  });
});
