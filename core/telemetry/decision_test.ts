import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { envFlag, readOptOut, telemetryDecision, telemetryEnv } from "./decision.ts";

Deno.test("telemetryDecision: every combination of config and environment", () => {
  const values = [undefined, "", " ", "1", "0", "true", "FALSE", "yes", "off", "2"];
  const says = (v: string | undefined) => {
    const t = v?.trim().toLowerCase() ?? "";
    return t === "" ? "unset" : t === "0" || t === "false" ? "no" : "yes";
  };
  for (const config of [true, false]) {
    for (const disabled of values) {
      for (const dnt of values) {
        const d = telemetryDecision(config, {
          HUB_TELEMETRY_DISABLED: disabled,
          DO_NOT_TRACK: dnt,
        });
        const label = `config ${config}, HUB_TELEMETRY_DISABLED=${disabled}, DO_NOT_TRACK=${dnt}`;
        const expected = !config
          ? "config"
          : says(disabled) === "yes"
          ? "HUB_TELEMETRY_DISABLED"
          : says(disabled) === "no"
          ? "HUB_TELEMETRY_DISABLED=0"
          : says(dnt) === "yes"
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

Deno.test("a value meant as off turns telemetry off, and the status says which value did it", () => {
  const yes = telemetryDecision(true, { HUB_TELEMETRY_DISABLED: "yes", DO_NOT_TRACK: "1" });
  assertEquals([yes.enabled, yes.reason, yes.text], [
    false,
    "HUB_TELEMETRY_DISABLED",
    "HUB_TELEMETRY_DISABLED=yes is set",
  ]);
  assertMatch(yes.note!, /HUB_TELEMETRY_DISABLED=yes is read as "off": any value other than 0/);
  const dnt = telemetryDecision(true, { DO_NOT_TRACK: "on" });
  assertEquals([dnt.enabled, dnt.text], [false, "DO_NOT_TRACK=on is set"]);
  assertMatch(dnt.note!, /^DO_NOT_TRACK=on is read as "off"/);
  const one = telemetryDecision(true, { DO_NOT_TRACK: "1" });
  assertEquals([one.text, one.note], ["DO_NOT_TRACK=1 is set", undefined]);
  const odd = telemetryDecision(true, { HUB_TELEMETRY_DISABLED: "a b\n".repeat(2000) });
  assertEquals(odd.enabled, false);
  assertEquals(odd.text.length < 120 && odd.note!.length < 240, true, odd.text);
  assertEquals(odd.text.includes("\n"), false);
});

Deno.test("telemetryDecision: the cases people meet, with their text", () => {
  assertEquals(telemetryDecision(true, {}), {
    enabled: true,
    reason: "default",
    text: "on by default",
  });
  assertEquals(telemetryDecision(true, { DO_NOT_TRACK: "1" }).text, "DO_NOT_TRACK=1 is set");
  const zero = telemetryDecision(true, { HUB_TELEMETRY_DISABLED: "0", DO_NOT_TRACK: "1" });
  assertEquals([zero.enabled, zero.text], [
    true,
    "HUB_TELEMETRY_DISABLED=0 is set (it decides instead of DO_NOT_TRACK)",
  ]);
  assertEquals(telemetryDecision(true, { HUB_TELEMETRY_DISABLED: "False" }).enabled, true);
  assertEquals(telemetryDecision(true, { DO_NOT_TRACK: "0" }).reason, "default");
  assertEquals(
    telemetryDecision(false, { HUB_TELEMETRY_DISABLED: "0" }).enabled,
    false,
    "an environment variable never turns on what config.json turned off",
  );
  assertEquals(telemetryDecision(true, { HUB_TELEMETRY_DISABLED: " TRUE " }).enabled, false);
});

Deno.test("envFlag, readOptOut and telemetryEnv", () => {
  assertEquals([envFlag("1"), envFlag("True"), envFlag("0"), envFlag("yes"), envFlag(undefined)], [
    true,
    true,
    false,
    false,
    false,
  ]);
  assertEquals(
    [undefined, "", "  ", "0", " false ", "1", "yes", "no"].map(readOptOut),
    ["unset", "unset", "unset", "no", "no", "yes", "yes", "yes"],
  );
  const env: Record<string, string> = { DO_NOT_TRACK: "1", OTHER: "x" };
  assertEquals(telemetryEnv((n) => env[n]), {
    HUB_TELEMETRY_DISABLED: undefined,
    DO_NOT_TRACK: "1",
  });
});
