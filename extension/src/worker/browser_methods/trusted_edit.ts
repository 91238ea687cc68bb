/**
 * The frame around trusted keys and typing (dom_key.ts, dom_type.ts): the kit focuses the element
 * and starts watching (`dom.focus`), the caller sends its keys or text through the debugger when
 * the kit says they can reach the element, and the kit reads what they did (`dom.keysDone`). A key
 * that took the tab to another page before the kit could answer reads as a possible navigation.
 */
import type { KitArgs } from "../../page/dom_kit_types.ts";
import { HubError } from "../../../../protocol/errors.ts";
import type { MethodContext } from "./browser_method.ts";
import { placeCall } from "./call_place.ts";
import type { PageNavigation } from "./dom_call.ts";
import { kitStep } from "./kit_step.ts";

/** Where the keys go: a ref, or a selector (none: the focused element), in a frame. */
export interface EditPlace {
  ref?: string;
  frame?: string;
  selector?: string;
}

/**
 * Runs `dom.focus` with `focus`, then `send` with its answer: `send` sends the input and answers
 * `dom.keysDone`'s arguments, or undefined to send nothing (the element cannot take it), and then
 * this answers undefined too. Else `dom.keysDone`'s answer, its `navigation` passed to `onPage`.
 */
export async function trustedEdit(
  tabId: number,
  tool: string,
  where: EditPlace,
  focus: Omit<KitArgs<"dom.focus">, "selector" | "ref">,
  send: (focused: Record<string, unknown>) => Promise<KitArgs<"dom.keysDone"> | undefined>,
  context: MethodContext,
  onPage: (seen: PageNavigation) => void,
): Promise<Record<string, unknown> | undefined> {
  const { calls } = context;
  const { place, focused } = await calls.run(tabId, tool, async () => {
    const place = await placeCall(tabId, where.ref, where.frame, context);
    const args = { ...focus, selector: where.ref ? undefined : where.selector, ref: place.ref };
    return { place, focused: await kitStep(tabId, place, "dom.focus", args, context) };
  });
  const doneArgs = await send(focused);
  if (!doneArgs) return undefined;
  const done = await calls.run(
    tabId,
    tool,
    () => kitStep(tabId, place, "dom.keysDone", doneArgs, context),
  ).catch((error) => {
    if (error instanceof HubError && error.payload.code === "TAB_NAVIGATED") {
      return { navigation: "possible" } as Record<string, unknown>;
    }
    throw error;
  });
  const { navigation, ...answer } = done;
  if (navigation) onPage(navigation as PageNavigation);
  return answer;
}
