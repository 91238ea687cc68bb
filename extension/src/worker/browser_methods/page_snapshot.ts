/** `page.snapshot` (browser_snapshot): being built (helper H4). */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const pageSnapshot: BrowserMethod<"page.snapshot"> = async (input, context) =>
  await domCall("page.snapshot", input, context, "browser_snapshot") as never;
