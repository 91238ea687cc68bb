/**
 * The extension's side panel page, opened in a tab like the side panel shows it, and what the
 * extension shows outside it (badge, notifications).
 */
import type { Page, Worker } from "playwright-core";
import type { E2E } from "./e2e_fixture.ts";
import { eventually } from "./hub_api.ts";

/** Opens `chrome-extension://<id>/panel.html` at a side panel's width, once it has drawn. */
export async function openPanel(e2e: E2E): Promise<Page> {
  const worker = await e2e.browser.serviceWorker();
  const id = new URL(worker.url()).host;
  const page = await e2e.browser.context.newPage();
  await page.setViewportSize({ width: 380, height: 900 });
  await page.goto(`chrome-extension://${id}/panel.html`);
  await page.waitForSelector("body[data-ready]");
  return page;
}

/** What the extension shows outside the panel: the badge text and the hub's notification ids. */
export interface Alerts {
  badge: string;
  notifications: string[];
}

/** Reads the badge and the notifications from the extension's service worker. */
export async function alerts(worker: Worker): Promise<Alerts> {
  // A string: the worker's `chrome` is not in the types these tests are checked against.
  return await worker.evaluate(`(async () => ({
    badge: await chrome.action.getBadgeText({}),
    notifications: Object.keys(await chrome.notifications.getAll()),
  }))()`);
}

/** Waits until the badge reads `badge` and `notifications` notifications show; returns them. */
export async function alertsBecome(
  worker: Worker,
  badge: string,
  notifications: number,
): Promise<Alerts> {
  let last: Alerts | undefined;
  await eventually(
    async () => {
      last = await alerts(worker);
      return last.badge === badge && last.notifications.length === notifications;
    },
    () =>
      `expected badge "${badge}" and ${notifications} notifications, got ${JSON.stringify(last)}`,
  );
  return last!;
}
