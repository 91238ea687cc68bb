import { assertEquals } from "../../tests/helpers/assert.ts";
import { lazyPluginPackages } from "./lazy_packages.ts";
import type { ConfigStore } from "../config/config_store.ts";

Deno.test("the lazy package module loads on first use and answers like the real one", async () => {
  const root = await Deno.makeTempDir();
  try {
    let asked = 0;
    const packages = lazyPluginPackages({
      globalRoot: () => {
        asked++;
        return Promise.resolve(root);
      },
      store: { path: `${root}/config.json` } as ConfigStore,
    });
    assertEquals(asked, 0, "nothing runs before the first use");
    assertEquals(await packages.installed(), []);
    assertEquals(await packages.installed(), []);
    assertEquals(asked, 2);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
