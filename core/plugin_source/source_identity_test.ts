import { assertEquals } from "../../tests/helpers/assert.ts";
import { join } from "node:path";
import {
  describeSource,
  packageIdentity,
  packageOfFolder,
  sourceIdentity,
} from "./source_identity.ts";

Deno.test("a package's identity is its folder's name, scoped or not", async () => {
  assertEquals(packageOfFolder("/g/lib/node_modules/@aaa/hub-plugin-x"), "@aaa/hub-plugin-x");
  assertEquals(packageOfFolder("/g/lib/node_modules/hub-plugin-x"), "hub-plugin-x");
  assertEquals(
    await sourceIdentity({ source: "npm", dir: "/g/lib/node_modules/@aaa/hub-plugin-x" }),
    packageIdentity("@aaa/hub-plugin-x"),
  );
});

Deno.test("a local plugin's identity is its real folder; a link pointed elsewhere is another", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(join(root, "real"));
    await Deno.symlink(join(root, "real"), join(root, "link"));
    assertEquals(
      await sourceIdentity({ source: "local", dir: join(root, "link") }),
      `local:${join(root, "real")}`,
    );
    const gone = join(root, "gone");
    assertEquals(await sourceIdentity({ source: "local", dir: gone }), `local:${gone}`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("describeSource reads an identity for a person", () => {
  assertEquals(describeSource("npm:@aaa/x"), "package @aaa/x");
  assertEquals(describeSource("local:/work/x"), "folder /work/x");
  assertEquals(describeSource("something"), "something");
});
