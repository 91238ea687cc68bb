/// <reference lib="deno.ns" />
import { assert } from "../../../tests/helpers/assert.ts";
import { isDocumentGone } from "./chrome_errors.ts";

Deno.test("isDocumentGone: Chrome's words for a document or frame that went away, nothing else", () => {
  assert(isDocumentGone(new Error("No document with id D1 in tab with id 7")));
  assert(isDocumentGone(new Error("Frame with ID 0 was removed.")));
  assert(isDocumentGone(new Error("No frame with id 3 in tab 7.")));
  assert(!isDocumentGone(new Error("Cannot access a chrome:// URL")));
  assert(!isDocumentGone(undefined));
});
