/**
 * The extension's link to the hub in a real Chromium: it connects soon after launch, survives a
 * long idle period without reconnecting, reconnects by itself after a hub restart, a secret
 * rotation and `POST /extension/reload`, and its toolbar badge tells the truth when the hub is
 * gone, stopped or frozen.
 *
 * The idle check runs in a second, plain Chromium that no DevTools client is attached to. Measured
 * here: Chromium never stops a service worker that playwright (DevTools) is attached to, so an idle
 * check through playwright passes even for an extension with no keep-alive at all; in a plain
 * Chromium, a build of the extension without its ping and alarm lost its worker (and socket) after
 * 30 s and the hub logged a reconnect. The plain browser idles in parallel with the other steps.
 */
import { join } from "node:path";
import type { Worker } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { browserGate, CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/browser.ts";
import {
  callTool,
  type E2E,
  markWorker,
  PLUGIN,
  startE2E,
  waitForExtension,
  waitForNewWorker,
} from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { runHub, type RunningHub, startHub, tempConfigDir } from "../helpers/hub_process.ts";
import type { HealthPayload } from "../../protocol/health.ts";
import { VERSION } from "../../protocol/version.ts";
import { unmarked } from "../helpers/page_content.ts";

// What the evaluated functions below use inside the service worker.
declare const chrome: {
  action: {
    getBadgeText(details: Record<string, never>): Promise<string>;
    getTitle(details: Record<string, never>): Promise<string>;
  };
};

const gate = browserGate(import.meta.url);

const IDLE_MS = 72_000;
const CONNECTED_LINE = /Extension connected/g;

/** The secret in `<configDir>/extension/auth.json` now (rotation changes it). */
async function secretOf(configDir: string): Promise<string> {
  return JSON.parse(await Deno.readTextFile(join(configDir, "extension", "auth.json"))).secret;
}

/** `GET /health` on `port` with `secret`: the status, and the payload when it is 200. */
async function healthWith(
  port: number,
  secret: string,
): Promise<{ status: number; body?: HealthPayload }> {
  const res = await fetch(`http://127.0.0.1:${port}/health`, {
    headers: { authorization: `Bearer ${secret}` },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: res.status === 200 ? JSON.parse(text) : undefined };
}

/** Health of the e2e hub with the secret that is in auth.json right now. */
async function currentHealth(e2e: E2E): Promise<HealthPayload> {
  const reply = await healthWith(e2e.hub.port, await secretOf(e2e.configDir));
  if (!reply.body) throw new Error(`GET /health: ${reply.status}`);
  return reply.body;
}

function connectedLines(hub: RunningHub): number {
  return hub.output().match(CONNECTED_LINE)?.length ?? 0;
}

/** The time of the first hub log line that contains `text` (lines start with an ISO time). */
function logTime(hub: RunningHub, text: string): number {
  const line = hub.output().split("\n").find((l) => l.includes(text));
  if (!line) throw new Error(`no "${text}" line in the hub output:\n${hub.output()}`);
  return Date.parse(line.split(" ")[0]);
}

/** Badge text and title of the extension's action, read inside its current service worker. */
async function badge(e2e: E2E): Promise<{ text: string; title: string }> {
  const worker: Worker = await e2e.browser.serviceWorker();
  return await worker.evaluate(async () => ({
    text: await chrome.action.getBadgeText({}),
    title: await chrome.action.getTitle({}),
  }));
}

/** Waits until the badge satisfies `check` (the worker may be restarting meanwhile). */
async function waitForBadge(
  e2e: E2E,
  check: (b: { text: string; title: string }) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<{ text: string; title: string }> {
  let last: { text: string; title: string } | string = "never read";
  await eventually(
    async () => {
      try {
        last = await badge(e2e);
        return check(last);
      } catch (error) {
        last = `could not read it: ${(error as Error).message}`;
        return false;
      }
    },
    () => `the badge never showed ${what}; last: ${JSON.stringify(last)}`,
    timeoutMs,
  );
  return last as unknown as { text: string; title: string };
}

/** Opens the test web app and waits until the plugin's tab is ready; returns its tab id. */
async function openReadyTab(e2e: E2E): Promise<number> {
  const page = await e2e.open("/");
  const url = page.url();
  const detail = await e2e.waitForTabState("ready", (d) => d.tabs.some((t) => t.url === url));
  return detail.tabs.find((t) => t.url === url)!.tabId;
}

async function assertEchoWorks(e2e: E2E, text: string): Promise<void> {
  const reply = await callTool(e2e, `${PLUGIN}__echo`, { text });
  assertEquals(reply.status, 200, JSON.stringify(reply.body));
  assertEquals(unmarked(reply.body).structuredContent, { text });
}

/**
 * A hub with no plugins and a plain Chromium (no DevTools attached) with its extension. The
 * browser has nothing to do: one about:blank tab.
 */
async function startIdleRig() {
  const configDir = await tempConfigDir();
  const hub = await startHub({ configDir });
  const profileDir = await Deno.makeTempDir({ prefix: "hub-profile-" });
  const extensionDir = join(configDir, "extension");
  const chromium = new Deno.Command(CHROMIUM_PATH, {
    args: [
      ...CHROMIUM_ARGS,
      `--load-extension=${extensionDir}`,
      `--disable-extensions-except=${extensionDir}`,
      `--user-data-dir=${profileDir}`,
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    hub,
    async close() {
      try {
        chromium.kill("SIGTERM");
      } catch {
        // already exited
      }
      await chromium.status;
      await hub.stop();
      await Deno.remove(profileDir, { recursive: true }).catch(() => {});
      await Deno.remove(configDir, { recursive: true }).catch(() => {});
    },
  };
}

Deno.test({
  name: "extension connection: connect, idle, restart, reload, rotation, liveness",
  ignore: gate.ignore,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    gate.check();
    const started = Date.now();
    const idle = await startIdleRig();
    const e2e = await startE2E().catch(async (error) => {
      await idle.close();
      throw error;
    });
    let frozen = false;
    const timings: string[] = [];
    const timed = async (name: string, fn: () => Promise<void>) => {
      const t0 = Date.now();
      await t.step(name, fn);
      timings.push(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    };
    try {
      await timed(
        "connects within a few seconds of launch; /health shows one connection",
        async () => {
          await waitForExtension(e2e);
          // The browser is launched right after the hub listens: this bounds launch → connected.
          const ms = logTime(e2e.hub, "Extension connected") - logTime(e2e.hub, "listening on");
          console.log(
            `extension connected ${ms} ms after the hub listened (browser launch included)`,
          );
          assert(ms < 15_000, `connecting took ${ms} ms`);
          const health = await currentHealth(e2e);
          assertEquals(health.extensionConnected, true);
          assertEquals(health.extensionConnections, 1);
          assertEquals(connectedLines(e2e.hub), 1, e2e.hub.output());
          const shown = await waitForBadge(e2e, (b) => b.text === "", "connected");
          assert(
            shown.title.startsWith(`hub: connected to 127.0.0.1:${e2e.hub.port}.`),
            shown.title,
          );
        },
      );

      await timed(
        "the installed extension folder holds the built extension and hub files",
        async () => {
          const dir = join(e2e.configDir, "extension");
          const manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
          assertEquals(manifest.manifest_version, 3);
          assertEquals(manifest.version, VERSION);
          assertEquals(manifest.background.service_worker, "background.js");
          for (const file of ["background.js", "dom_kit.js", "panel.js"]) {
            const info = await Deno.stat(join(dir, file));
            assert(info.isFile && info.size > 0, `${file} is empty`);
          }
          const auth = JSON.parse(await Deno.readTextFile(join(dir, "auth.json")));
          assertMatch(auth.secret, /^[0-9a-f]{64}$/);
          assertEquals(auth.secret, e2e.hub.secret);
          const server = JSON.parse(await Deno.readTextFile(join(dir, "server.json")));
          assertEquals(server.port, e2e.hub.port);
        },
      );

      await timed("hub restarted → the extension reconnects by itself and tools work", async () => {
        await openReadyTab(e2e);
        await assertEchoWorks(e2e, "before restart");
        await e2e.restartHub();
        await waitForExtension(e2e);
        const health = await currentHealth(e2e);
        assertEquals(health.extensionConnections, 1);
        assertEquals(connectedLines(e2e.hub), 1, e2e.hub.output());
        // The new hub learns the open tab again from the extension (tab.syncAll on connect).
        await e2e.waitForTabState("ready");
        await assertEchoWorks(e2e, "after restart");
      });

      await timed("POST /extension/reload → the extension reloads and reconnects", async () => {
        await markWorker(e2e);
        const linesBefore = connectedLines(e2e.hub);
        const res = await fetch(`${e2e.hub.url}/extension/reload`, {
          method: "POST",
          headers: { authorization: `Bearer ${await secretOf(e2e.configDir)}` },
        });
        assertEquals(res.status, 200, await res.text());
        await eventually(
          () => Promise.resolve(connectedLines(e2e.hub) === linesBefore + 1),
          () => `the extension did not reconnect after the reload:\n${e2e.hub.output()}`,
        );
        assertMatch(e2e.hub.output(), /Extension disconnected/);
        await waitForExtension(e2e);
        // A new service worker runs: the marker set in the old one is gone.
        await waitForNewWorker(e2e);
        await waitForBadge(e2e, (b) => b.text === "", "connected");
        await e2e.waitForTabState("ready");
        await assertEchoWorks(e2e, "after extension reload");
      });

      await timed(
        "secret rotated with the CLI → the extension reconnects with the new secret",
        async () => {
          const oldSecret = e2e.hub.secret;
          const linesBefore = connectedLines(e2e.hub);
          const run = await runHub(
            ["config", "rotate-secret", "--confirm", "--port", String(e2e.hub.port)],
            { configDir: e2e.configDir },
          );
          assertEquals(run.code, 0, `${run.stdout}\n${run.stderr}`);
          assertMatch(run.stdout, /now uses the new secret/);
          const newSecret = await secretOf(e2e.configDir);
          assert(newSecret !== oldSecret, "auth.json still holds the old secret");
          assertEquals((await healthWith(e2e.hub.port, oldSecret)).status, 401);
          await eventually(
            () => Promise.resolve(connectedLines(e2e.hub) === linesBefore + 1),
            () => `the extension did not reconnect after the rotation:\n${e2e.hub.output()}`,
          );
          let last: HealthPayload | undefined;
          await eventually(
            async () =>
              (last = (await healthWith(e2e.hub.port, newSecret)).body)?.extensionConnected ===
                true,
            () => `never connected with the new secret; last health: ${JSON.stringify(last)}`,
          );
          assertEquals(last!.extensionConnections, 1);
          assertMatch(e2e.hub.output(), /secret rotated/);
        },
      );

      await timed("hub stopped → badge says off; hub back → badge clears", async () => {
        await waitForBadge(e2e, (b) => b.text === "", "connected");
        assertEquals(await e2e.hub.stop(), 0, e2e.hub.output());
        const off = await waitForBadge(e2e, (b) => b.text === "off", '"off"');
        assertMatch(off.title, /^hub: disconnected/);
        // It keeps saying so (or "…" while it dials) as long as the hub is gone.
        for (let i = 0; i < 10; i++) {
          const now = await badge(e2e);
          assert(now.text === "off" || now.text === "…", `badge ${JSON.stringify(now)}`);
          await new Promise((r) => setTimeout(r, 300));
        }
        await e2e.restartHub(); // starts it again on the same port
        await waitForExtension(e2e);
        const on = await waitForBadge(e2e, (b) => b.text === "", "connected");
        assert(on.title.startsWith(`hub: connected to 127.0.0.1:${e2e.hub.port}.`), on.title);
        await e2e.waitForTabState("ready");
        await assertEchoWorks(e2e, "after the hub came back");
      });

      await timed(
        "hub frozen (no answers, socket open) → badge stops claiming connected",
        async () => {
          const t0 = Date.now();
          e2e.hub.child.kill("SIGSTOP");
          frozen = true;
          // A ping at most every 20 s, dead after 10 s without an answer: generous bound 60 s.
          const shown = await waitForBadge(
            e2e,
            (b) => b.text === "off" || b.text === "…",
            '"off" or "…" for a frozen hub',
            60_000,
          );
          console.log(`frozen hub noticed after ${Date.now() - t0} ms: ${JSON.stringify(shown)}`);
          assertMatch(shown.title, /the hub stopped answering/);
          e2e.hub.child.kill("SIGCONT");
          frozen = false;
          await waitForExtension(e2e);
          await waitForBadge(e2e, (b) => b.text === "", "connected", 30_000);
          assertEquals((await currentHealth(e2e)).extensionConnections, 1);
        },
      );

      await timed(
        `service worker idle ${IDLE_MS / 1000} s (plain Chromium) stays connected`,
        async () => {
          await eventually(
            async () =>
              (await healthWith(idle.hub.port, idle.hub.secret)).body?.extensionConnected === true,
            () => `the idle browser's extension never connected:\n${idle.hub.output()}`,
          );
          const connectedAt = logTime(idle.hub, "Extension connected");
          const left = connectedAt + IDLE_MS - Date.now();
          console.log(`idle rig: waiting ${Math.max(0, Math.round(left / 1000))} s more`);
          if (left > 0) await new Promise((r) => setTimeout(r, left));
          const health = (await healthWith(idle.hub.port, idle.hub.secret)).body!;
          assertEquals(health.extensionConnected, true, idle.hub.output());
          assertEquals(health.extensionConnections, 1);
          assertEquals(connectedLines(idle.hub), 1, idle.hub.output());
          assert(!/Extension disconnected/.test(idle.hub.output()), idle.hub.output());
          assert(Date.now() - connectedAt >= IDLE_MS);
        },
      );
    } finally {
      if (frozen) e2e.hub.child.kill("SIGCONT");
      await e2e.close();
      await idle.close();
      timings.push(`total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      console.log(timings.join("\n"));
    }
  },
});
