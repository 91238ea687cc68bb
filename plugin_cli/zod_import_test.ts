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

Deno.test("the import text in a template literal, a string or a comment stays byte-identical", () => {
  const sources = [
    'import { definePlugin } from "@tabhub/sdk";\n' +
    "const description = `Example:\nimport { z } from \"zod\";\nimport { z } from '@tabhub/sdk';\n`;",
    'import { definePlugin } from "@tabhub/sdk";\nconst s = "x";\nimport { z } from "zod";',
    '/*\nimport { z } from "zod";\n*/\nimport { definePlugin } from "@tabhub/sdk";',
    '// import { z } from "zod";\nexport const a = 1;',
    'const sample = `\nimport { z } from "zod";\n`;\nexport default sample;',
  ];
  for (const source of sources) assertEquals(namespaceZodImports(source), source);
});

Deno.test("the leading import block only: a later code sample stays, the real import changes", () => {
  const source = 'import { z } from "zod";\n' +
    'export const help = `\nimport { z } from "zod";\n`;\n';
  assertEquals(
    namespaceZodImports(source),
    'import * as z from "zod"; import {  } from "zod";\n' +
      'export const help = `\nimport { z } from "zod";\n`;\n',
  );
});

Deno.test("imports after a leading comment block, a shebang and other imports are rewritten", () => {
  const source = [
    "#!/usr/bin/env -S deno run",
    "/**",
    ' * My plugin. Usage: import { z } from "zod";',
    " */",
    "// @ts-nocheck: a line comment",
    "",
    'import "./side_effect.ts";',
    'import type { Log } from "@tabhub/sdk";',
    'import * as path from "node:path";',
    'import data from "./data.json" with { type: "json" };',
    "import def, { named } from './other.ts'",
    "import {",
    "  definePlugin,",
    "  z as zod,",
    "  type Tool,",
    '} from "@tabhub/sdk";',
    "const x = zod.string();",
  ].join("\n");
  const out = namespaceZodImports(source).split("\n");
  assertEquals(out.length, source.split("\n").length);
  assertEquals(out.slice(0, 11), source.split("\n").slice(0, 11));
  assertEquals(
    out[11],
    'import * as zod from "zod"; import { definePlugin, type Tool } from "@tabhub/sdk";',
  );
  assertEquals(out.slice(12), ["", "", "", "", "const x = zod.string();"]);
});

Deno.test("one-line imports side by side and `z, type X` are rewritten", () => {
  assertEquals(
    namespaceZodImports(
      `import { a } from "./a.ts"; import { z, type X } from "@tabhub/sdk";\nz.string();`,
    ),
    `import { a } from "./a.ts"; import * as z from "zod"; import { type X } from "@tabhub/sdk";\nz.string();`,
  );
});

Deno.test("a dynamic import or import.meta ends the leading block", () => {
  const sources = [
    'const m = await import("./m.ts");\nimport { z } from "zod";',
    'import.meta.url;\nimport { z } from "zod";',
    'importer();\nimport { z } from "zod";',
  ];
  for (const source of sources) assertEquals(namespaceZodImports(source), source);
});
