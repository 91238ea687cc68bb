import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig } from "../../core/config/schema.ts";
import { announcedPart } from "./announced_part.ts";

Deno.test("a part differs until it is recorded, and only in the fields the part reads", () => {
  const before = defaultConfig();
  const after = { ...before, defaultSitePermission: "off" as const };
  const site = announcedPart((c) => String(c.defaultSitePermission), before);
  assertEquals([site.differs(before), site.differs(after)], [false, true]);
  site.record(after);
  assertEquals([site.differs(before), site.differs(after)], [true, false]);
  const other = { ...after, skipPermissions: !after.skipPermissions };
  assertEquals(site.differs(other), false, "a field outside the part");
  assertEquals(announcedPart(() => "x").differs(before), true, "nothing announced yet");
});
