/**
 * Debian Chromium with hub's installed extension (`<config>/extension`), driven by playwright-core:
 * a fresh temp profile per launch, `CHROMIUM_ARGS` (browser.ts), and a handle on the extension's
 * service worker for tests that need to look inside it.
 */
import { join } from "node:path";
import { type BrowserContext, chromium, type Worker } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./browser.ts";

export interface ExtensionBrowser {
  context: BrowserContext;
  profileDir: string;
  /** The extension's current service worker (waits for one when it is not running). */
  serviceWorker(timeoutMs?: number): Promise<Worker>;
  close(): Promise<void>;
}

/**
 * A fresh temp profile with developer mode on, as for anyone who used "Load unpacked": without it
 * Chromium disables an unpacked extension that reloads itself (POST /extension/reload, self-update).
 */
export async function extensionProfile(prefix = "hub-profile-"): Promise<string> {
  const profileDir = await Deno.makeTempDir({ prefix });
  await Deno.mkdir(join(profileDir, "Default"));
  await Deno.writeTextFile(
    join(profileDir, "Default", "Preferences"),
    JSON.stringify({ extensions: { ui: { developer_mode: true } } }),
  );
  return profileDir;
}

/** `CHROMIUM_ARGS` with `extensionDir` as the only extension. */
export function extensionArgs(extensionDir: string): string[] {
  return [
    ...CHROMIUM_ARGS,
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
  ];
}

export async function launchWithExtension(extensionDir: string): Promise<ExtensionBrowser> {
  const profileDir = await extensionProfile();
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: false, // "--headless=new" below: the old headless mode runs no extensions
    args: extensionArgs(extensionDir),
  });
  return {
    context,
    profileDir,
    async serviceWorker(timeoutMs = 10_000) {
      const running = context.serviceWorkers().find((w) => w.url().endsWith("/background.js"));
      if (running) return running;
      return await context.waitForEvent("serviceworker", {
        timeout: timeoutMs,
        predicate: (w) => w.url().endsWith("/background.js"),
      });
    },
    async close() {
      await context.close().catch(() => {});
      await Deno.remove(profileDir, { recursive: true }).catch(() => {});
    },
  };
}
