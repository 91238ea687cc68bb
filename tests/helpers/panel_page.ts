/** The extension's side panel page, opened in a tab like the side panel shows it. */
import type { Page } from "playwright-core";
import type { E2E } from "./e2e_fixture.ts";

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
