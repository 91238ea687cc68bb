import { assertEquals } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { currentUser } from "./ownership.ts";

Deno.test({
  name: "the user running hub is the owner of what it creates, with the home folder's group",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withTempDir(async (home) => {
      const info = await Deno.stat(home);
      assertEquals(await currentUser(home), { uid: info.uid!, gid: info.gid! });
      const missing = await currentUser(`${home}/missing`);
      assertEquals(missing?.uid, info.uid, "no home folder: still the user, group unknown");
      assertEquals(missing?.gid, undefined);
    });
  },
});
