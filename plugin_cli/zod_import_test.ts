import { assertEquals } from "../tests/helpers/assert.ts";
import { namespaceZodImports } from "./zod_import.ts";

Deno.test("z imported from the SDK becomes a namespace import of zod; the rest stays", () => {
  assertEquals(
    namespaceZodImports(`import { definePlugin, z, type Log } from "@tabhub/sdk";\nz.object({});`),
    `import * as z from "zod"; import { definePlugin, type Log } from "@tabhub/sdk";\nz.object({});`,
  );
});

Deno.test("z from zod, from the old SDK name, and under another local name", () => {
  assertEquals(
    namespaceZodImports(`import { z } from 'zod'`),
    `import * as z from 'zod'; import {  } from 'zod';`,
  );
  assertEquals(
    namespaceZodImports(`  import { z as zod } from "@hub/sdk";`),
    `  import * as zod from "zod"; import {  } from "@hub/sdk";`,
  );
});

Deno.test("a multi-line import keeps its line count", () => {
  const source = `import {\n  definePlugin,\n  z,\n} from "@tabhub/sdk";\nconst a = 1;`;
  const out = namespaceZodImports(source);
  assertEquals(out.split("\n").length, source.split("\n").length);
  assertEquals(out.split("\n")[4], "const a = 1;");
  assertEquals(
    out.split("\n")[0],
    `import * as z from "zod"; import { definePlugin } from "@tabhub/sdk";`,
  );
});

Deno.test("lines it cannot read safely, type imports and other modules stay as they are", () => {
  const unchanged = [
    `import type { z } from "zod";`,
    `import { type z } from "@tabhub/sdk";`,
    `import { z } from "./my_zod.ts";`,
    `import { definePlugin } from "@tabhub/sdk";`,
    `import {\n  z, // zod\n  log,\n} from "@tabhub/sdk";`,
    `export { z } from "@tabhub/sdk";`,
    `const s = "import { z } from 'zod'";`,
  ];
  for (const source of unchanged) assertEquals(namespaceZodImports(source), source);
});
