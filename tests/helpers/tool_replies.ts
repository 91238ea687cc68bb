/** Checking REST tool-call replies in the browser e2e suites, and finding a page's tab id. */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { callTool, type E2E } from "./e2e_fixture.ts";
import { type ApiReply, eventually } from "./hub_api.ts";
import type { TabSummary } from "../../protocol/browser_methods/tabs.ts";
import { unmarked } from "./page_content.ts";

/** One tab as browser_list_tabs lists it (the `tabs.list` result of the contract). */
export type ListedTab = TabSummary;

/**
 * A successful REST call's value (structuredContent), without the page-content marker a reading
 * or plugin tool's result carries (checked whole first: tests/helpers/page_content.ts).
 */
export function ok(reply: ApiReply, what: string) {
  const body = JSON.stringify(reply.body).slice(0, 1000);
  assertEquals(reply.status, 200, `${what}: ${body}`);
  assert(!reply.body.isError, `${what}: ${body}`);
  return unmarked(reply.body).structuredContent;
}

/** Asserts a failed REST call: status, code (and category / message when given); the error. */
export function failed(
  reply: ApiReply,
  expected: { status: number; code: string; category?: string; message?: RegExp },
) {
  const error = reply.body?.structuredContent?.error;
  assertEquals(
    { status: reply.status, code: error?.code, isError: reply.body?.isError },
    { status: expected.status, code: expected.code, isError: true },
    JSON.stringify(reply.body),
  );
  if (expected.category) assertEquals(error.category, expected.category);
  if (expected.message) assertMatch(error.message, expected.message);
  assertEquals(reply.body.content[0].type, "text");
  assertMatch(reply.body.content[0].text, new RegExp(`^${expected.code}: `));
  return error;
}

/** Every tab the extension sees (`browser_list_tabs`). */
export async function listTabs(e2e: E2E): Promise<ListedTab[]> {
  return ok(await callTool(e2e, "browser_list_tabs"), "browser_list_tabs").tabs;
}

/** The extension's tab id of a playwright page (found by its unique URL). */
export async function tabIdOf(e2e: E2E, page: Page): Promise<number> {
  let found: ListedTab[] = [];
  await eventually(async () => {
    found = (await listTabs(e2e)).filter((t) => t.url === page.url());
    return found.length === 1;
  }, () => `no single tab with url ${page.url()}: ${JSON.stringify(found)}`);
  return found[0].tabId;
}
