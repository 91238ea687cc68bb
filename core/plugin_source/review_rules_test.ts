import { assertEquals } from "../../tests/helpers/assert.ts";
import type { PluginPermissionConfig } from "../config/schema.ts";
import { grantsAnything, reviewReason, sourceDiffers } from "./review_rules.ts";

const entry = (fields: Partial<PluginPermissionConfig> = {}): PluginPermissionConfig => ({
  permission: "auto",
  tools: {},
  reviewedVersion: "1.0.0",
  reviewedSource: "npm:hub-plugin-a",
  ...fields,
});
const plugin = { version: "1.0.0", sourceId: "npm:hub-plugin-a" };

Deno.test("grantsAnything: the default or one tool not off", () => {
  assertEquals(grantsAnything(entry()), true);
  assertEquals(grantsAnything(entry({ permission: "off" })), false);
  assertEquals(grantsAnything(entry({ permission: "off", tools: { x: "off" } })), false);
  assertEquals(grantsAnything(entry({ permission: "off", tools: { x: "ask" } })), true);
});

Deno.test("reviewReason: the source weighs first, then the version; none without a review", () => {
  assertEquals(reviewReason(undefined, plugin), undefined);
  assertEquals(reviewReason(entry({ reviewedVersion: undefined }), plugin), undefined);
  assertEquals(reviewReason(entry(), plugin), undefined);
  assertEquals(reviewReason(entry(), { ...plugin, version: "1.1.0" }), "version");
  assertEquals(reviewReason(entry(), { ...plugin, sourceId: "npm:other" }), "source");
  assertEquals(reviewReason(entry(), { version: "2.0.0", sourceId: "local:/a" }), "source");
});

Deno.test("a legacy entry (no source) is another source only for a local override", () => {
  const legacy = entry({ reviewedSource: undefined });
  assertEquals(sourceDiffers(legacy, plugin), false);
  assertEquals(sourceDiffers(legacy, { ...plugin, overrides: true }), true);
  assertEquals(reviewReason(legacy, plugin), undefined);
  assertEquals(reviewReason(legacy, { ...plugin, overrides: true }), "source");
  assertEquals(reviewReason(legacy, { ...plugin, version: "0.9.0" }), "version");
});
