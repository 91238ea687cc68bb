import { assertEquals } from "../tests/helpers/assert.ts";
import { VERSION } from "../protocol/version.ts";
import { ROOT } from "./build.ts";
import { repositoryVersions, versionMismatches } from "./version_check.ts";

Deno.test("every versioned file of the repository says VERSION", async () => {
  const files = await repositoryVersions(ROOT);
  const paths = files.map((f) => f.path);
  for (
    const path of [
      "deno.json",
      "sdk/deno.json",
      "protocol/deno.json",
      "extension/deno.json",
      "extension/manifest.ts",
      "extension/dist/manifest.json",
    ]
  ) {
    assertEquals(paths.includes(path), true, path);
  }
  assertEquals(versionMismatches(files), []);
});

Deno.test("a file with another version, or none, is named", () => {
  assertEquals(
    versionMismatches([
      { path: "a/deno.json", version: VERSION },
      { path: "b/deno.json", version: "0.0.9" },
      { path: "c/deno.json", version: undefined },
    ], VERSION),
    [
      `b/deno.json has version "0.0.9" instead of ${VERSION} (protocol/version.ts)`,
      `c/deno.json has version "(none)" instead of ${VERSION} (protocol/version.ts)`,
    ],
  );
});
