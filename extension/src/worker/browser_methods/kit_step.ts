/**
 * One kit-only operation (page/kit_only_ops.ts) in a known document, for a method on its way to
 * its answer (trusted keys: focus, then what the keys did; a custom dropdown's option): the kit in
 * `place` runs it (installed first when missing), its registry is recorded in the tab's frame
 * table (so a ref it hands out leads back to that document), and a failure becomes the tool's
 * error, as for any DOM call (dom_call.ts).
 */
import type { KitArgs } from "../../page/dom_kit_types.ts";
import type { KitOnlyOp } from "../../page/kit_only_ops.ts";
import type { MethodContext } from "./browser_method.ts";
import { type CallPlace, goneError } from "./call_place.ts";
import { kitFailure, runInTab, withoutUndefined } from "./dom_call.ts";

export async function kitStep<Op extends KitOnlyOp>(
  tabId: number,
  place: CallPlace,
  op: Op,
  args: KitArgs<Op>,
  context: Pick<MethodContext, "refFrames">,
): Promise<Record<string, unknown>> {
  return (await kitStepIn(tabId, place, op, args, context)).value;
}

/**
 * `kitStep`, with the token of the document's registry (to make a KitRef for an element in the
 * answer: element_point.ts).
 */
export async function kitStepIn<Op extends KitOnlyOp>(
  tabId: number,
  place: CallPlace,
  op: Op,
  args: KitArgs<Op>,
  { refFrames }: Pick<MethodContext, "refFrames">,
): Promise<{ value: Record<string, unknown>; token?: string }> {
  let outcome;
  try {
    outcome = await runInTab(place.target, op, withoutUndefined(args), false, place.scheme);
  } catch (error) {
    throw goneError(place, error);
  }
  if (!outcome.ok) throw kitFailure(outcome.error);
  if (outcome.doc && place.k !== undefined) {
    await refFrames.recordDoc(tabId, place.k, outcome.doc, place.documentId);
  }
  return { value: outcome.value, token: outcome.doc?.token };
}
