import { assertEquals } from "../../tests/helpers/assert.ts";
import {
  defaultConfig,
  type HubConfig,
  type PluginPermissionConfig,
} from "../../core/config/schema.ts";
import {
  applyReviewChanges,
  type InstalledPlugin,
  markReviewed,
  needsReview,
  reviewChanges,
} from "./review.ts";

function configWith(permissions: Record<string, PluginPermissionConfig>): HubConfig {
  const config = defaultConfig();
  config.permissions = permissions;
  return config;
}

/** The source of plugin `name` in these tests: its community package. */
const src = (name: string) => `npm:hub-plugin-${name}`;

function p(name: string, version: string, sourceId = src(name), overrides = false) {
  return { name, version, sourceId, ...(overrides ? { overrides } : {}) };
}

/** Runs the policy the way the hub does: compute, then apply to the config. */
function enforce(config: HubConfig, plugins: InstalledPlugin[], contested: string[] = []) {
  const changes = reviewChanges(config, plugins, contested);
  applyReviewChanges(config, changes);
  return changes;
}

Deno.test("a granted plugin without reviewedVersion gets the installed version recorded", () => {
  const config = configWith({ slack: { permission: "ask", tools: {} } });
  const changes = enforce(config, [p("slack", "1.2.0")]);
  assertEquals(changes, [{ plugin: "slack", kind: "recorded", to: "1.2.0", source: src("slack") }]);
  assertEquals(config.permissions.slack, {
    permission: "ask",
    tools: {},
    reviewedVersion: "1.2.0",
    reviewedSource: src("slack"),
  });
});

Deno.test("a tool-level grant alone also counts as granted and is recorded", () => {
  const config = configWith({ slack: { permission: "off", tools: { send: "auto" } } });
  const changes = enforce(config, [p("slack", "2.0.0")]);
  assertEquals(changes, [{ plugin: "slack", kind: "recorded", to: "2.0.0", source: src("slack") }]);
  assertEquals(config.permissions.slack.reviewedVersion, "2.0.0");
  assertEquals(config.permissions.slack.reviewedSource, src("slack"));
  assertEquals(config.permissions.slack.tools, { send: "auto" }, "grants are kept");
});

Deno.test("a new version of a granted plugin resets it: permission off, tool overrides removed", () => {
  const config = configWith({
    slack: { permission: "auto", tools: { send: "ask", read: "off" }, reviewedVersion: "1.0.0" },
  });
  const changes = enforce(config, [p("slack", "1.1.0")]);
  assertEquals(changes, [{
    plugin: "slack",
    kind: "reset",
    from: "1.0.0",
    to: "1.1.0",
    source: src("slack"),
  }]);
  assertEquals(config.permissions.slack, {
    permission: "off",
    tools: {},
    reviewedVersion: "1.0.0",
  });
  assertEquals(needsReview(config, p("slack", "1.1.0")), "version");
  // Once reset, nothing is granted any more, so the next reload changes nothing.
  assertEquals(reviewChanges(config, [p("slack", "1.1.0")]), []);
});

Deno.test("a reset also happens when only a tool override grants something", () => {
  const config = configWith({
    slack: { permission: "off", tools: { send: "ask" }, reviewedVersion: "1.0.0" },
  });
  assertEquals(enforce(config, [p("slack", "0.9.0")]), [
    { plugin: "slack", kind: "reset", from: "1.0.0", to: "0.9.0", source: src("slack") },
  ]);
  assertEquals(config.permissions.slack.tools, {});
});

Deno.test("nothing changes when the reviewed identity is the installed one", () => {
  const entry = {
    permission: "auto" as const,
    tools: { send: "ask" as const },
    reviewedVersion: "3.0.0",
    reviewedSource: src("slack"),
  };
  const config = configWith({ slack: structuredClone(entry) });
  assertEquals(enforce(config, [p("slack", "3.0.0")]), []);
  assertEquals(config.permissions.slack, entry);
});

Deno.test("nothing changes when nothing is granted, with or without a reviewed version", () => {
  const config = configWith({
    a: { permission: "off", tools: {} },
    b: { permission: "off", tools: { x: "off" } },
    c: { permission: "off", tools: {}, reviewedVersion: "1.0.0" },
  });
  const before = structuredClone(config.permissions);
  assertEquals(
    enforce(config, [
      p("a", "1.0.0"),
      p("b", "1.0.0"),
      p("c", "2.0.0"),
    ]),
    [],
  );
  assertEquals(config.permissions, before);
});

Deno.test("nothing changes for a plugin without a permissions entry", () => {
  const config = configWith({});
  assertEquals(enforce(config, [p("slack", "1.0.0")]), []);
  assertEquals(config.permissions, {});
});

Deno.test("entries of plugins that are not installed are left alone", () => {
  const config = configWith({ gone: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" } });
  assertEquals(enforce(config, [p("slack", "1.0.0")]), []);
  assertEquals(config.permissions.gone.permission, "auto");
});

Deno.test("reviewChanges handles several plugins at once and is pure", () => {
  const config = configWith({
    a: { permission: "ask", tools: {} },
    b: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" },
    c: { permission: "auto", tools: {}, reviewedVersion: "1.0.0", reviewedSource: src("c") },
  });
  const before = structuredClone(config);
  const changes = reviewChanges(config, [
    p("a", "0.1.0"),
    p("b", "2.0.0"),
    p("c", "1.0.0"),
  ]);
  assertEquals(changes, [
    { plugin: "a", kind: "recorded", to: "0.1.0", source: src("a") },
    { plugin: "b", kind: "reset", from: "1.0.0", to: "2.0.0", source: src("b") },
  ]);
  assertEquals(config, before, "computing changes does not touch the config");
});

Deno.test("applyReviewChanges skips a change whose entry has gone meanwhile", () => {
  const config = configWith({});
  applyReviewChanges(config, [{
    plugin: "slack",
    kind: "recorded",
    to: "1.0.0",
    source: src("slack"),
  }]);
  assertEquals(config.permissions, {});
});

Deno.test("needsReview gives a reason only when a reviewed identity exists and differs", () => {
  const config = configWith({
    slack: {
      permission: "auto",
      tools: {},
      reviewedVersion: "1.0.0",
      reviewedSource: src("slack"),
    },
    fresh: { permission: "auto", tools: {} },
  });
  assertEquals(needsReview(config, p("slack", "1.0.0")), undefined);
  assertEquals(needsReview(config, p("slack", "1.0.1")), "version");
  assertEquals(needsReview(config, p("slack", "1.0.0", "local:/elsewhere")), "source");
  assertEquals(needsReview(config, p("slack", "1.0.1", "local:/elsewhere")), "source");
  assertEquals(needsReview(config, p("fresh", "1.0.0")), undefined);
  assertEquals(needsReview(config, p("unknown", "1.0.0")), undefined);
});

// --- grants belong to a source ---

Deno.test("another source with the plugin's name needs review and has its grants taken back", () => {
  const config = configWith({
    jira: {
      permission: "auto",
      tools: { x: "auto" },
      reviewedVersion: "1.0.0",
      reviewedSource: "npm:@tabhub/hub-plugin-jira",
    },
  });
  const impostor = p("jira", "1.0.0", "npm:@aaa/hub-plugin-jira-helper");
  assertEquals(needsReview(config, impostor), "source");
  assertEquals(enforce(config, [impostor]), [{
    plugin: "jira",
    kind: "reset",
    from: "1.0.0",
    to: "1.0.0",
    source: "npm:@aaa/hub-plugin-jira-helper",
    fromSource: "npm:@tabhub/hub-plugin-jira",
  }]);
  assertEquals(config.permissions.jira.permission, "off");
  assertEquals(config.permissions.jira.tools, {});
  // The reviewed identity stays the official one: the impostor is never recorded as reviewed.
  assertEquals(config.permissions.jira.reviewedSource, "npm:@tabhub/hub-plugin-jira");
  assertEquals(enforce(config, [impostor]), [], "nothing is granted any more");
});

Deno.test("a legacy entry (version only) binds to its single source when the version matches", () => {
  const config = configWith({ slack: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" } });
  assertEquals(needsReview(config, p("slack", "1.0.0")), undefined, "a single source is not reset");
  assertEquals(enforce(config, [p("slack", "1.0.0")]), [
    { plugin: "slack", kind: "recorded", to: "1.0.0", source: src("slack") },
  ]);
  assertEquals(config.permissions.slack, {
    permission: "auto",
    tools: {},
    reviewedVersion: "1.0.0",
    reviewedSource: src("slack"),
  });
});

Deno.test("a legacy entry is taken back when a local plugin overrides or the name is contested", () => {
  const overriding = configWith({ a: { permission: "ask", tools: {}, reviewedVersion: "1.0.0" } });
  const local = p("a", "1.0.0", "local:/work/a", true);
  assertEquals(needsReview(overriding, local), "source");
  assertEquals(enforce(overriding, [local]), [{
    plugin: "a",
    kind: "reset",
    from: "1.0.0",
    to: "1.0.0",
    source: "local:/work/a",
    fromUnrecorded: true,
  }]);
  assertEquals(overriding.permissions.a.permission, "off");

  const contested = configWith({
    jira: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" },
    bound: { permission: "auto", tools: {}, reviewedVersion: "1.0.0", reviewedSource: src("b") },
  });
  assertEquals(enforce(contested, [], ["jira", "bound", "unknown"]), [{
    plugin: "jira",
    kind: "reset",
    from: "1.0.0",
    to: "1.0.0",
    fromUnrecorded: true,
  }]);
  assertEquals(contested.permissions.jira.permission, "off");
  assertEquals(
    contested.permissions.bound.permission,
    "auto",
    "a bound grant waits for its source",
  );
});

Deno.test("a local plugin overriding a package starts unreviewed", () => {
  const config = configWith({
    a: { permission: "auto", tools: {}, reviewedVersion: "1.0.0", reviewedSource: src("a") },
  });
  const local = p("a", "1.0.0", "local:/work/a", true);
  assertEquals(needsReview(config, local), "source");
  assertEquals(enforce(config, [local])[0].kind, "reset");
  assertEquals(config.permissions.a.permission, "off");
});

Deno.test("markReviewed records version and source, and takes back another identity's grants", () => {
  const config = configWith({
    jira: { permission: "auto", tools: {}, reviewedVersion: "1.0.0", reviewedSource: "npm:a" },
  });
  markReviewed(config, "jira", "1.0.0", "npm:a");
  assertEquals(config.permissions.jira.permission, "auto", "the same identity keeps its grants");
  markReviewed(config, "jira", "1.0.0", "npm:b");
  assertEquals(config.permissions.jira, {
    permission: "off",
    tools: {},
    reviewedVersion: "1.0.0",
    reviewedSource: "npm:b",
  });
});

Deno.test("an unbound grant (made by name, no single source) is never handed to the next source", () => {
  const unbound = () => ({
    permission: "auto" as const,
    tools: { t: "ask" as const },
    unboundGrant: true as const,
  });
  const config = configWith({ jira: unbound() });
  // Not installed, or contested: nothing to change, nothing served.
  assertEquals(reviewChanges(config, [], ["jira"]), []);
  // The impostor alone claims the name: it needs review at once and its grants are taken back.
  assertEquals(needsReview(config, p("jira", "6.6.6")), "source");
  const changes = enforce(config, [p("jira", "6.6.6")]);
  assertEquals(changes, [{
    plugin: "jira",
    kind: "reset",
    to: "6.6.6",
    source: src("jira"),
    unbound: true,
  }]);
  assertEquals(config.permissions.jira, { permission: "off", tools: {} });
  // Nothing more on the next load: it stays off and unreviewed until a person allows it.
  assertEquals(reviewChanges(config, [p("jira", "6.6.6")]), []);
  assertEquals(needsReview(config, p("jira", "6.6.6")), undefined);
});

Deno.test("an unbound entry that grants nothing changes nothing; marking reviewed grants nothing", () => {
  const config = configWith({ jira: { permission: "off", tools: {}, unboundGrant: true } });
  assertEquals(reviewChanges(config, [p("jira", "1.0.0")]), []);
  config.permissions.jira = { permission: "auto", tools: {}, unboundGrant: true };
  markReviewed(config, "jira", "1.0.0", src("jira"));
  assertEquals(config.permissions.jira, {
    permission: "off",
    tools: {},
    reviewedVersion: "1.0.0",
    reviewedSource: src("jira"),
  });
});
