import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import type { ConfigSchema } from "../../protocol/plugin_manifest.ts";
import { parseSetFlags, parseSettingText, promptSettings, settingText } from "./settings_input.ts";

const schema: ConfigSchema = {
  instances: { type: "url", label: "Instances" },
  mode: { type: "select", label: "Mode", options: ["fast", "thorough"], default: "fast" },
  verbose: { type: "boolean", label: "Verbose", description: "Log more" },
  pageSize: { type: "number", label: "Page size", min: 1, max: 100, integer: true },
};

Deno.test("parseSettingText: each field type, and what fits when it does not", () => {
  const { instances, mode, verbose, pageSize } = schema;
  assertEquals(parseSettingText(instances, "https://a.test"), "https://a.test");
  assertEquals(parseSettingText(instances, "work=https://a.test, home=http://b.test/x"), {
    work: "https://a.test",
    home: "http://b.test/x",
  });
  assertEquals(parseSettingText(instances, '{"w":"https://a.test"}'), { w: "https://a.test" });
  assertThrows(() => parseSettingText(instances, "ftp://x"), /must be an http\(s\) URL/);
  assertThrows(() => parseSettingText(instances, "=https://x"), /not a name=url pair/);
  assertThrows(() => parseSettingText(instances, "{bad"), /not valid JSON/);
  assertEquals(parseSettingText(mode, "thorough"), "thorough");
  assertEquals(parseSettingText(mode, "2"), "thorough");
  assertThrows(() => parseSettingText(mode, "slow"), /must be one of "fast", "thorough"/);
  assertEquals([parseSettingText(verbose, "Yes"), parseSettingText(verbose, "off")], [true, false]);
  assertThrows(() => parseSettingText(verbose, "maybe"), /not yes or no/);
  assertEquals(parseSettingText(pageSize, " 20 "), 20);
  assertThrows(() => parseSettingText(pageSize, "2.5"), /whole number/);
  assertThrows(() => parseSettingText(pageSize, "500"), /at most 100/);
  assertThrows(() => parseSettingText(pageSize, "many"), /must be a number/);
  assertEquals(parseSettingText(pageSize, "-"), null);
});

Deno.test("parseSetFlags: key=value flags, unknown keys and bad values named", () => {
  assertEquals(parseSetFlags(schema, ["mode=fast", "instances=a=https://a.test", "verbose=-"]), {
    mode: "fast",
    instances: { a: "https://a.test" },
    verbose: null,
  });
  assertThrows(
    () => parseSetFlags(schema, ["color=red"]),
    /"color" is not a setting.*instances, mode/,
  );
  assertThrows(() => parseSetFlags(schema, ["mode"]), /write it as key=value/);
  assertThrows(
    () => parseSetFlags(schema, ["pageSize=0"]),
    /--set pageSize: must be at least 1 \(a whole number \(>= 1, <= 100\)\)/,
  );
  assertThrows(() => parseSetFlags(schema, ["__proto__=1"]), /not a setting/);
});

Deno.test("promptSettings: current values as defaults, asks again until the answer fits", () => {
  const answers = ["", "nope", "thorough", "-", "500", "7"];
  const asked: string[] = [];
  const told: string[] = [];
  const changes = promptSettings(
    schema,
    { instances: { w: "https://a.test", h: "https://b.test" }, verbose: true },
    (q) => (asked.push(q), answers.shift() ?? null),
    (line) => told.push(line),
  );
  assertEquals(changes, { mode: "thorough", verbose: null, pageSize: 7 });
  assertEquals(
    asked[0],
    "Instances (instances; a URL, or name=url pairs separated by commas) [w=https://a.test, h=https://b.test]:",
  );
  assertEquals(asked[1], "Mode (mode; fast | thorough) [fast]:");
  assertEquals(asked[3], "Verbose (verbose; yes | no) [yes]:");
  assertEquals(told.filter((l) => l.includes("try again")).length, 2);
  assertEquals(told.includes("Verbose: Log more"), true);
  assertThrows(() => promptSettings(schema, {}, () => null, () => {}), /Cancelled/);
  assertEquals(settingText(schema.instances, "https://a.test"), "https://a.test");
});

Deno.test("promptSettings: a plugin's label, description and options are escaped", () => {
  const asked: string[] = [];
  const told: string[] = [];
  promptSettings(
    {
      mode: {
        type: "select",
        label: "Mode\u202E",
        description: "How\x1b[2J",
        options: ["fast", "slow\u200B"],
      },
    },
    {},
    (question) => (asked.push(question), ""),
    (line) => told.push(line),
  );
  assertEquals(told, ["Mode⟨U+202E⟩: How⟨U+001B⟩[2J"]);
  assertEquals(asked, ["Mode⟨U+202E⟩ (mode; fast | slow⟨U+200B⟩) []:"]);
});
