import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { defaultConfig } from "../../core/config/schema.ts";
import type { InstallResult } from "../../protocol/packages.ts";
import { broadLine, failedLine, notLinkedLine, permissionLine } from "./outcome.ts";
import { allowHint } from "./context.ts";

const result: InstallResult = {
  name: "@aaa/hub-plugin-jira-helper",
  plugin: "jira",
  version: "1.0.0",
};

Deno.test("broadLine warns in words about a plugin on every site, and says nothing otherwise", () => {
  assertEquals(
    broadLine("jira", ["<all_urls>"]),
    'Warning: plugin "jira" runs on every website you visit (<all_urls>). Once allowed, its code ' +
      "can read and change those pages while you are logged in.",
  );
  assertEquals(broadLine("jira", ["https://jira.example.com/*"]), undefined);
  assertEquals(broadLine("jira", undefined), undefined);
});

Deno.test("notLinkedLine names the programs and manual pages that were not linked", () => {
  assertEquals(notLinkedLine(result), undefined);
  assertEquals(
    notLinkedLine({ ...result, notLinked: { bin: ["git", "ls"], man: [] } }),
    "@aaa/hub-plugin-jira-helper declares programs (git, ls); none was linked: plugin packages " +
      "never put programs on your PATH.",
  );
});

Deno.test("permissionLine tells the truth: off, kept for this very package, or not this one's", () => {
  const config = defaultConfig();
  assertEquals(permissionLine(config, result), { kind: "none", text: allowHint("jira") });
  config.permissions.jira = {
    permission: "auto",
    tools: {},
    reviewedVersion: "1.0.0",
    reviewedSource: "npm:@tabhub/hub-plugin-jira",
  };
  assertEquals(permissionLine(config, result).kind, "other");
  assertMatch(
    permissionLine(config, result).text,
    /allows plugin "jira" \(auto\) for the package @tabhub\/hub-plugin-jira 1\.0\.0, not for this install: the hub turns it off/,
  );
  config.permissions.jira.reviewedSource = "npm:@aaa/hub-plugin-jira-helper";
  assertEquals(permissionLine(config, result), {
    kind: "kept",
    text: "It keeps the permission you gave @aaa/hub-plugin-jira-helper 1.0.0: auto.",
  });
  config.permissions.jira.reviewedVersion = "0.9.0";
  assertMatch(
    permissionLine(config, result).text,
    /for the package @aaa\/hub-plugin-jira-helper 0\.9\.0, not for this install/,
  );
  delete config.permissions.jira.reviewedSource;
  config.permissions.jira.reviewedVersion = "1.0.0";
  assertMatch(permissionLine(config, result).text, /for an earlier install 1\.0\.0, not for this/);
  config.permissions.jira = { permission: "off", tools: { search: "ask" } };
  assertEquals(permissionLine(config, result).kind, "unreviewed");
  assertMatch(
    permissionLine(config, result).text,
    /allows plugin "jira" \(off, except search: ask\) without a review/,
  );
});

Deno.test("failedLine gives the hub's reason", () => {
  assertEquals(failedLine(undefined), undefined);
  assertEquals(failedLine({ path: "/x", error: "taken" }), "The hub did not load it: taken");
});
