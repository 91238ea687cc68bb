import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { parseSetCommand, type SetContext } from "./keys.ts";
import { siteLines } from "./site_keys.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { UserError } from "../../core/cli/user_error.ts";

const ctx: SetContext = {
  cwd: "/home/me",
  configDir: "/home/me/.hub",
  force: false,
  isDirectory: () => false,
};

/** The message of the UserError `work` throws. */
function problemOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    assert(error instanceof UserError, String(error));
    return error.message;
  }
  throw new Error("nothing was thrown");
}

/** Asserts that `work` throws a UserError whose message holds `text`. */
function refuses(work: () => unknown, text: string): void {
  const message = problemOf(work);
  assert(message.includes(text), message);
}

function apply(key: string, value?: string, config: HubConfig = defaultConfig()) {
  parseSetCommand(key, value, ctx).apply(config);
  return config;
}

Deno.test("site-permission.<pattern>: everything after the prefix is the pattern, stored canonically", () => {
  const config = apply("site-permission.Example.COM", "off");
  apply("site-permission.*.example.com", "ask", config);
  apply("site-permission.127.0.0.1:8080", "auto", config);
  apply("site-permission.https://App.example.com:8443", "auto", config);
  apply("site-permission.localhost", "ask", config);
  assertEquals(config.sitePermissions, {
    "example.com": "off",
    "*.example.com": "ask",
    "127.0.0.1:8080": "auto",
    "https://app.example.com:8443": "auto",
    "localhost": "ask",
  });
  const change = parseSetCommand("site-permission.bank.example", "off", ctx);
  assertEquals(
    change.summary,
    "site permission of bank.example = off (browser tools do nothing there)",
  );
});

Deno.test("site-permission.<pattern> remove drops the rule; a missing rule is a user error", () => {
  const config = apply("site-permission.example.com", "off");
  apply("site-permission.EXAMPLE.com", "remove", config);
  assertEquals(config.sitePermissions, {});
  refuses(
    () => apply("site-permission.example.com", "remove", config),
    "There is no site rule example.com; nothing was removed. Rules: (none).",
  );
});

Deno.test("site-permission refuses a bad pattern with its problem and an example", () => {
  for (
    const [pattern, problem] of [
      ["https://example.com/path", "must be an origin only"],
      ["a.*.example.com", '"*"'],
      ["", "is empty"],
      ["*.10.0.0.1", "IP address"],
      ["example.com:99999", "is not a host name"],
      ["constructor", "reserved"],
    ]
  ) {
    const message = problemOf(() => apply(`site-permission.${pattern}`, "off"));
    assert(message.includes(problem), message);
    if (pattern !== "constructor") {
      assert(
        message.includes("hub config set site-permission.example.com off"),
        message,
      );
    }
  }
});

Deno.test("site-permission refuses a value that is no permission, and a missing one", () => {
  refuses(() => apply("site-permission.example.com", "yes"), 'off, ask, auto or remove, not "yes"');
  refuses(() => apply("site-permission.example.com"), "off, ask, auto or remove.");
});

Deno.test("site-permission refuses a 501st rule but changes an existing one", () => {
  const config = defaultConfig();
  for (let i = 0; i < 500; i++) config.sitePermissions[`s${i}.example`] = "off";
  refuses(() => apply("site-permission.new.example", "off", config), "500 rules");
  assertEquals(
    apply("site-permission.s3.example", "auto", config).sitePermissions["s3.example"],
    "auto",
  );
});

Deno.test("defaultSitePermission and agentTabsOnly take their values only", () => {
  assertEquals(apply("defaultSitePermission", "off").defaultSitePermission, "off");
  assertEquals(apply("defaultSitePermission", " auto ").defaultSitePermission, "auto");
  assert(parseSetCommand("defaultSitePermission", "auto", ctx).summary.includes("any site"));
  refuses(() => apply("defaultSitePermission", "allow"), "off, ask, auto");
  assertEquals(apply("agentTabsOnly", "true").agentTabsOnly, true);
  assertEquals(
    apply("agentTabsOnly", "false", { ...defaultConfig(), agentTabsOnly: true }).agentTabsOnly,
    false,
  );
  refuses(() => apply("agentTabsOnly", "yes"), "true or false");
  refuses(() => apply("agentTabsOnly"), "true or false");
});

Deno.test("the unknown-key message lists the site keys", () => {
  const message = problemOf(() => apply("sitePermissions", "x"));
  for (const key of ["site-permission.<pattern>", "defaultSitePermission", "agentTabsOnly"]) {
    assert(message.includes(key), key);
  }
});

Deno.test("siteLines shows the default, agentTabsOnly and each rule on its own line", () => {
  assertEquals(siteLines(defaultConfig()).length, 1);
  assert(
    siteLines(defaultConfig())[0].startsWith(
      "Sites:       ask for sites without a rule; agentTabsOnly false; 0 rules",
    ),
  );
  const config = apply("site-permission.b.example", "off");
  apply("site-permission.*.a.example", "auto", config);
  assertEquals(siteLines(config).slice(1), ["  *.a.example  auto", "  b.example    off"]);
});
