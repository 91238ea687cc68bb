/** `page.waitFor` in one document: one check of browser_wait_for (being built: helper H5). */
import { fail } from "./dom_find.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";

export function checkWaitFor(_args: KitArgs<"page.waitFor">, _state: KitState): never {
  throw fail("UNKNOWN_OPERATION", "page.waitFor is being built.");
}
