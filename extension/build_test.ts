/// <reference lib="deno.ns" />
import { join } from "node:path";
import { assertEquals } from "../tests/helpers/assert.ts";
import { buildExtension, DIST } from "./build.ts";
import { buildManifest, manifestVersion } from "./manifest.ts";
import { VERSION } from "../protocol/version.ts";

Deno.test("extension/dist is the build of the current sources (run: deno task build:extension)", async () => {
  const built = await buildExtension();
  for (const [name, text] of Object.entries(built)) {
    const committed = await Deno.readTextFile(join(DIST, name)).catch(() => "");
    assertEquals(
      committed === text,
      true,
      `extension/dist/${name} is stale: run "deno task build:extension" and commit the result`,
    );
  }
});

/** chrome.* namespaces that need a manifest permission of the same name. */
const GATED = [
  "alarms",
  "scripting",
  "webNavigation",
  "storage",
  "sidePanel",
  "debugger",
  "cookies",
];

Deno.test("the manifest asks for exactly the permissions the service worker uses", async () => {
  const code = (await buildExtension())["background.js"];
  const used = GATED.filter((api) => code.includes(`chrome.${api}.`));
  const permissions = buildManifest().permissions as string[];
  // "tabs" gates no namespace: it grants every tab's url and title, which the code reads.
  assertEquals(permissions.filter((p) => p !== "tabs").sort(), used.sort());
  assertEquals(permissions.includes("tabs") && /\.url\b/.test(code), true);
});

Deno.test("the manifest's shape", () => {
  const manifest = buildManifest();
  assertEquals(manifest.manifest_version, 3);
  assertEquals(manifest.version_name, VERSION);
  assertEquals(manifest.permissions, ["alarms", "scripting", "tabs", "webNavigation"]);
  assertEquals(manifest.host_permissions, ["<all_urls>"]);
  assertEquals(manifest.background, { service_worker: "background.js" });
});

Deno.test("manifest versions keep only the numeric part Chromium accepts", () => {
  assertEquals(manifestVersion("1.2.3"), "1.2.3");
  assertEquals(manifestVersion("1.2.3-beta.1"), "1.2.3");
  assertEquals(manifestVersion("2"), "2");
});
