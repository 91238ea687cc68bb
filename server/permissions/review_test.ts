import { assertEquals } from "../../tests/helpers/assert.ts";
import {
  defaultConfig,
  type HubConfig,
  type PluginPermissionConfig,
} from "../../core/config/schema.ts";
import { applyReviewChanges, needsReview, reviewChanges } from "./review.ts";

function configWith(permissions: Record<string, PluginPermissionConfig>): HubConfig {
  const config = defaultConfig();
  config.permissions = permissions;
  return config;
}

/** Runs the policy the way the hub does: compute, then apply to the config. */
function enforce(config: HubConfig, plugins: { name: string; version: string }[]) {
  const changes = reviewChanges(config, plugins);
  applyReviewChanges(config, changes);
  return changes;
}

Deno.test("a granted plugin without reviewedVersion gets the installed version recorded", () => {
  const config = configWith({ slack: { permission: "ask", tools: {} } });
  const changes = enforce(config, [{ name: "slack", version: "1.2.0" }]);
  assertEquals(changes, [{ plugin: "slack", kind: "recorded", to: "1.2.0" }]);
  assertEquals(config.permissions.slack, {
    permission: "ask",
    tools: {},
    reviewedVersion: "1.2.0",
  });
});

Deno.test("a tool-level grant alone also counts as granted and is recorded", () => {
  const config = configWith({ slack: { permission: "off", tools: { send: "auto" } } });
  const changes = enforce(config, [{ name: "slack", version: "2.0.0" }]);
  assertEquals(changes, [{ plugin: "slack", kind: "recorded", to: "2.0.0" }]);
  assertEquals(config.permissions.slack.reviewedVersion, "2.0.0");
  assertEquals(config.permissions.slack.tools, { send: "auto" }, "grants are kept");
});

Deno.test("a new version of a granted plugin resets it: permission off, tool overrides removed", () => {
  const config = configWith({
    slack: { permission: "auto", tools: { send: "ask", read: "off" }, reviewedVersion: "1.0.0" },
  });
  const changes = enforce(config, [{ name: "slack", version: "1.1.0" }]);
  assertEquals(changes, [{ plugin: "slack", kind: "reset", from: "1.0.0", to: "1.1.0" }]);
  assertEquals(config.permissions.slack, {
    permission: "off",
    tools: {},
    reviewedVersion: "1.0.0",
  });
  assertEquals(needsReview(config, { name: "slack", version: "1.1.0" }), true);
  // Once reset, nothing is granted any more, so the next reload changes nothing.
  assertEquals(reviewChanges(config, [{ name: "slack", version: "1.1.0" }]), []);
});

Deno.test("a reset also happens when only a tool override grants something", () => {
  const config = configWith({
    slack: { permission: "off", tools: { send: "ask" }, reviewedVersion: "1.0.0" },
  });
  assertEquals(enforce(config, [{ name: "slack", version: "0.9.0" }]), [
    { plugin: "slack", kind: "reset", from: "1.0.0", to: "0.9.0" },
  ]);
  assertEquals(config.permissions.slack.tools, {});
});

Deno.test("nothing changes when the reviewed version is the installed one", () => {
  const entry = {
    permission: "auto" as const,
    tools: { send: "ask" as const },
    reviewedVersion: "3.0.0",
  };
  const config = configWith({ slack: structuredClone(entry) });
  assertEquals(enforce(config, [{ name: "slack", version: "3.0.0" }]), []);
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
      { name: "a", version: "1.0.0" },
      { name: "b", version: "1.0.0" },
      { name: "c", version: "2.0.0" },
    ]),
    [],
  );
  assertEquals(config.permissions, before);
});

Deno.test("nothing changes for a plugin without a permissions entry", () => {
  const config = configWith({});
  assertEquals(enforce(config, [{ name: "slack", version: "1.0.0" }]), []);
  assertEquals(config.permissions, {});
});

Deno.test("entries of plugins that are not installed are left alone", () => {
  const config = configWith({ gone: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" } });
  assertEquals(enforce(config, [{ name: "slack", version: "1.0.0" }]), []);
  assertEquals(config.permissions.gone.permission, "auto");
});

Deno.test("reviewChanges handles several plugins at once and is pure", () => {
  const config = configWith({
    a: { permission: "ask", tools: {} },
    b: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" },
    c: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" },
  });
  const before = structuredClone(config);
  const changes = reviewChanges(config, [
    { name: "a", version: "0.1.0" },
    { name: "b", version: "2.0.0" },
    { name: "c", version: "1.0.0" },
  ]);
  assertEquals(changes, [
    { plugin: "a", kind: "recorded", to: "0.1.0" },
    { plugin: "b", kind: "reset", from: "1.0.0", to: "2.0.0" },
  ]);
  assertEquals(config, before, "computing changes does not touch the config");
});

Deno.test("applyReviewChanges skips a change whose entry has gone meanwhile", () => {
  const config = configWith({});
  applyReviewChanges(config, [{ plugin: "slack", kind: "recorded", to: "1.0.0" }]);
  assertEquals(config.permissions, {});
});

Deno.test("needsReview is true only when a reviewed version exists and differs", () => {
  const config = configWith({
    slack: { permission: "auto", tools: {}, reviewedVersion: "1.0.0" },
    fresh: { permission: "auto", tools: {} },
  });
  assertEquals(needsReview(config, { name: "slack", version: "1.0.0" }), false);
  assertEquals(needsReview(config, { name: "slack", version: "1.0.1" }), true);
  assertEquals(needsReview(config, { name: "fresh", version: "1.0.0" }), false);
  assertEquals(needsReview(config, { name: "unknown", version: "1.0.0" }), false);
});
