import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { browserToolsRunAuto, sitePermissionsCheck } from "./site_check.ts";

function configWith(fields: Partial<HubConfig>): HubConfig {
  return { ...defaultConfig(), ...fields };
}

const browser = (
  permission: "off" | "ask" | "auto",
  tools: HubConfig["permissions"][string]["tools"] = {},
) => ({
  permissions: { browser: { permission, tools } },
});

Deno.test("a new install passes: browser tools off, sites ask", () => {
  const check = sitePermissionsCheck(defaultConfig(), false);
  assertEquals(check.status, "pass");
  assertEquals(check.message, "sites without a rule: ask; 0 rules; agentTabsOnly off");
});

Deno.test("browser tools auto and the default site permission auto: a warning naming the fix", () => {
  const check = sitePermissionsCheck(
    configWith({ ...browser("auto"), defaultSitePermission: "auto" }),
    false,
  );
  assertEquals(check.status, "warn");
  assert(check.message.startsWith("browser tools are auto and defaultSitePermission is auto"));
  assertEquals(check.fix, "hub config set defaultSitePermission ask");
});

Deno.test("either alone is fine: auto tools with sites ask, or auto sites with tools ask", () => {
  assertEquals(sitePermissionsCheck(configWith(browser("auto")), false).status, "pass");
  const autoSites = configWith({ ...browser("ask"), defaultSitePermission: "auto" });
  assertEquals(sitePermissionsCheck(autoSites, false).status, "pass");
  assertEquals(sitePermissionsCheck(undefined, false).status, "skip");
});

Deno.test("skip-permissions makes ask tools run auto; off stays off", () => {
  const ask = configWith({ ...browser("ask"), defaultSitePermission: "auto" });
  const check = sitePermissionsCheck(ask, true);
  assertEquals(check.status, "warn");
  assert(check.message.startsWith("browser tools are ask, and skip-permissions is on"));
  const off = configWith({ ...browser("off"), defaultSitePermission: "auto" });
  assertEquals(sitePermissionsCheck(off, true).status, "pass");
});

Deno.test("one browser tool set auto counts; tools that touch no page do not", () => {
  const config = configWith(
    browser("off", { browser_click_element: "auto", browser_type_text: "auto" }),
  );
  assertEquals(
    browserToolsRunAuto(config, false),
    "browser_click_element is auto (and 1 more browser tool)",
  );
  for (const name of ["extension_reload", "browser_list_tabs", "browser_list_windows"]) {
    const siteless = configWith(browser("off", { [name]: "auto", browser_list_downloads: "auto" }));
    assertEquals(browserToolsRunAuto(siteless, false), undefined, name);
  }
  assertEquals(browserToolsRunAuto(defaultConfig(), true), undefined);
});

Deno.test("the group off runs nothing; one ask tool runs under skip-permissions", () => {
  const config = configWith(browser("off", {}));
  assertEquals(browserToolsRunAuto(config, true), undefined);
  const askTool = configWith(browser("off", { browser_snapshot: "ask" }));
  assertEquals(
    browserToolsRunAuto(askTool, true),
    "browser_snapshot is ask, and skip-permissions is on",
  );
});
