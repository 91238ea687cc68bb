/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../tests/helpers/assert.ts";
import { isPermission, PERMISSIONS, permissionSchema } from "./permission.ts";

Deno.test("the three permissions are the only values the schema and isPermission accept", () => {
  assertEquals([...PERMISSIONS], ["off", "ask", "auto"]);
  for (const p of PERMISSIONS) {
    assert(isPermission(p));
    assertEquals(permissionSchema.parse(p), p);
  }
  for (const bad of ["Auto", "on", "", null, undefined, 1, ["ask"]]) {
    assert(!isPermission(bad), String(bad));
    assert(!permissionSchema.safeParse(bad).success, String(bad));
  }
});
