/** `page.snapshot` in one document: the outline of browser_snapshot (being built: helper H3). */
import { fail } from "./dom_find.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";

export function snapshotDocument(_args: KitArgs<"page.snapshot">, _state: KitState): never {
  throw fail("UNKNOWN_OPERATION", "page.snapshot is being built.");
}
