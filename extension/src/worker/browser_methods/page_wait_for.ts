/** `page.waitFor` (browser_wait_for): being built (helper H5). */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const pageWaitFor: BrowserMethod<"page.waitFor"> = async (input, context) =>
  await domCall("page.waitFor", input, context, "browser_wait_for") as never;
