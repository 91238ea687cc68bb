import { assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { pinnedVersions } from "./dependencies.ts";

const LOCK = JSON.stringify({
  version: "5",
  specifiers: {
    "npm:@modelcontextprotocol/sdk@1.32.2": "1.32.2_zod@4.6.7",
    "npm:@modelcontextprotocol/sdk@^1.32.2": "1.32.2_zod@4.6.7",
    "npm:commander@14": "14.0.3",
    "npm:zod@^4.1.0": "4.6.7",
    "npm:zod@3": "3.25.0",
    "npm:ajv@^8.17.1": "8.20.0",
  },
});

Deno.test("the exact versions deno.lock resolved, without peer suffixes", () => {
  assertEquals(pinnedVersions(["commander", "@modelcontextprotocol/sdk", "ajv"], LOCK), {
    "@modelcontextprotocol/sdk": "1.32.2",
    ajv: "8.20.0",
    commander: "14.0.3",
  });
});

Deno.test("a package deno.lock does not know, or knows twice, cannot be pinned", () => {
  assertThrows(
    () => pinnedVersions(["semver"], LOCK),
    /Cannot pin "semver".*no entry.*deno install/,
  );
  assertThrows(() => pinnedVersions(["zod"], LOCK), /several versions \(4\.6\.7, 3\.25\.0\)/);
});

Deno.test("the repository's own lockfile pins what the hub imports", () => {
  const lock = Deno.readTextFileSync(new URL("../deno.lock", import.meta.url));
  const pinned = pinnedVersions(["zod", "commander"], lock);
  for (const version of Object.values(pinned)) assertEquals(/^\d+\.\d+\.\d+$/.test(version), true);
});
