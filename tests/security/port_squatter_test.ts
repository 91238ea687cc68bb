/**
 * Security, port squatting: a program that binds the hub's port first must never receive the
 * secret, nor anything else. A squatter (tests/helpers/port_squatter.ts) answers
 * `/auth/challenge` with garbage, with a 404, with the real hub's answer relayed from another port,
 * or with a 409 `NO_SECRET` (a claim to have no secret, so that clients talk to it without one),
 * and records every request. The CLI (`hub config set`, `hub status`, `hub tool list`,
 * `hub tool call`), the stdio bridge (also when the hub goes away under it and the squatter takes
 * its port), `hub-plugin build`'s reload and the real extension in Chromium ask it the challenge
 * and nothing more (no request, no WebSocket attempt), while the same clients work against the
 * real hub.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { bridgeCommandArgs } from "../helpers/cli_tool_fixture.ts";
import {
  freePort,
  ROOT,
  runHub,
  type RunningHub,
  startHub,
  tempConfigDir,
} from "../helpers/hub_process.ts";
import { eventually } from "../helpers/hub_api.ts";
import { type Squatter, type SquatterMode, startSquatter } from "../helpers/port_squatter.ts";
import { runPluginCli, simplePluginSource, writePluginProject } from "../helpers/plugin_cli.ts";
import { browserGate } from "../helpers/browser.ts";
import { launchWithExtension } from "../helpers/extension_browser.ts";
import { challengeProof } from "../../protocol/challenge.ts";
import { generateSecret, writeSecret } from "../../core/config/secret.ts";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const UNPROVEN = /did not prove it knows the hub secret .*so the secret was not sent/s;
const CLAIMS_NO_SECRET = /claims to have no secret/;

/** The squatter was asked the challenge, and nothing else: no request, no WebSocket offer. */
function assertOnlyChallenged(squatter: Squatter, what: string) {
  assertEquals(squatter.others(), [], `${what}: a request went past the challenge`);
  assertEquals(squatter.offers, [], `${what}: a WebSocket attempt reached the squatter`);
}

/** The squatter got no Authorization header and the secret in no header at all. */
function assertNothingLeaked(squatter: Squatter, secret: string, what: string) {
  assertEquals(squatter.leaks(secret), [], `${what}: the secret reached the squatter`);
  const authorized = squatter.requests.filter((r) =>
    r.headers.some(([name]) => name === "authorization")
  );
  assertEquals(authorized.map((r) => r.path), [], `${what}: an Authorization header was sent`);
}

async function withRealHub(fn: (hub: RunningHub) => Promise<void>) {
  const configDir = await tempConfigDir();
  const hub = await startHub({ configDir });
  try {
    await fn(hub);
  } finally {
    assertEquals(await hub.stop(), 0, hub.output());
    await Deno.remove(configDir, { recursive: true });
  }
}

const challenge = (port: number, query: string) =>
  fetch(`http://127.0.0.1:${port}/auth/challenge${query}`, { signal: AbortSignal.timeout(10_000) });

Deno.test("/auth/challenge: the proof for the hub's own port, without a token; bad nonces are 400", async () => {
  await withRealHub(async (hub) => {
    const nonce = "c0ffee".repeat(10);
    const res = await challenge(hub.port, `?nonce=${nonce}`);
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("cache-control"), "no-store");
    const { proof } = await res.json();
    assertEquals(proof, await challengeProof(hub.secret, nonce, hub.port));
    assert(proof !== await challengeProof(hub.secret, nonce, hub.port + 1));

    for (
      const query of ["", "?nonce=abc", `?nonce=${"g".repeat(32)}`, `?nonce=${"a".repeat(65)}`]
    ) {
      const bad = await challenge(hub.port, query);
      assertEquals(bad.status, 400, query);
      assertEquals((await bad.json()).error.code, "INVALID_NONCE", query);
    }
    const twice = await challenge(hub.port, `?nonce=${nonce}&nonce=${nonce}`);
    assertEquals(twice.status, 400);
    await twice.body?.cancel();

    // Not rate-limited like the admin routes: a CLI call must never be refused for it.
    const statuses = await Promise.all(
      Array.from(
        { length: 60 },
        (_, i) =>
          challenge(hub.port, `?nonce=${i.toString(16).padStart(32, "0")}`).then(async (r) => {
            await r.body?.cancel();
            return r.status;
          }),
      ),
    );
    assertEquals(new Set(statuses), new Set([200]));

    // A rotated auth.json: the proof follows the new secret at once.
    const next = generateSecret();
    await writeSecret(join(hub.configDir, "extension", "auth.json"), next);
    const after = await (await challenge(hub.port, `?nonce=${nonce}`)).json();
    assertEquals(after.proof, await challengeProof(next, nonce, hub.port));
  });
});

Deno.test("the CLI, the stdio bridge and hub-plugin send a squatter no secret and say why", async () => {
  await withRealHub(async (hub) => {
    const cases: [SquatterMode, string[][]][] = [
      ["relay", [
        ["config", "set", "setting.my-plugin.k", "v"],
        ["status"],
        ["tool", "list"],
        ["start", "--stdio"],
      ]],
      ["garbage", [["config", "set", "setting.my-plugin.k", "v"], ["status"]]],
      ["not-found", [["tool", "list"], ["start", "--stdio"]]],
      ["no-secret", [
        ["config", "set", "setting.my-plugin.k", "v"],
        ["status"],
        ["tool", "list"],
        ["tool", "call", "plugin_list_tabs", '{"note": "for the hub only"}'],
        ["start", "--stdio"],
      ]],
    ];
    for (const [mode, commands] of cases) {
      const squatter = startSquatter(mode, { relayTo: hub.port });
      try {
        for (const args of commands) {
          const what = `${mode}: hub ${args.join(" ")}`;
          const r = await runHub(args, {
            configDir: hub.configDir,
            env: { HUB_PORT: String(squatter.port) },
            timeoutMs: 30_000,
          });
          assertNothingLeaked(squatter, hub.secret, what);
          assertOnlyChallenged(squatter, what);
          assertEquals(r.code, 1, `${what}\n${r.stdout}\n${r.stderr}`);
          assertMatch(r.stderr, UNPROVEN, what);
          if (mode === "no-secret") assertMatch(r.stderr, CLAIMS_NO_SECRET, what);
          assertMatch(r.stderr, new RegExp(`port ${squatter.port}\\b.*lsof -i :${squatter.port}`));
          if (args[0] === "start") assertEquals(r.stdout, "", `${what}: stdout is for MCP only`);
        }
        assert(squatter.challenges() >= commands.length, `${mode}: every command asked first`);
      } finally {
        await squatter.stop();
      }
    }

    // hub-plugin build: the build succeeds; the reload is not asked of the squatter.
    for (const [mode, name] of [["relay", "notes"], ["no-secret", "memos"]] as const) {
      const squatter = startSquatter(mode, { relayTo: hub.port });
      try {
        const dir = await writePluginProject(join(hub.configDir, name), {
          name,
          source: simplePluginSource(["add_note"]),
        });
        const r = await runPluginCli(["build", "--dir", dir], {
          configDir: hub.configDir,
          env: { HUB_PORT: String(squatter.port) },
        });
        const what = `${mode}: hub-plugin build`;
        assertNothingLeaked(squatter, hub.secret, what);
        assertOnlyChallenged(squatter, what);
        assertEquals(r.code, 0, `${r.stdout}\n${r.stderr}`);
        assertMatch(r.stdout + r.stderr, /Did not ask for a reload: The process on port/);
        if (mode === "no-secret") assertMatch(r.stdout + r.stderr, CLAIMS_NO_SECRET, what);
        assert(squatter.challenges() >= 1, what);
      } finally {
        await squatter.stop();
      }
    }

    // The same commands against the real hub work.
    const env = { HUB_PORT: String(hub.port) };
    const status = await runHub(["status"], { configDir: hub.configDir, env });
    assertEquals(status.code, 0, status.stderr);
    assertMatch(status.stdout, new RegExp(`running on http://127\\.0\\.0\\.1:${hub.port}`));
    const set = await runHub(["config", "set", "setting.my-plugin.k", "w"], {
      configDir: hub.configDir,
      env,
    });
    assertEquals(set.code, 0, set.stderr);
    assertMatch(set.stdout, new RegExp(`The running hub on port ${hub.port} has reloaded`));
  });
});

Deno.test("a bridge whose hub stopped and whose port a squatter took sends it no secret", async () => {
  const configDir = await tempConfigDir();
  const port = freePort();
  let hub: RunningHub | undefined = await startHub({ configDir, port });
  const secret = hub.secret;
  let squatter: Squatter | undefined;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: bridgeCommandArgs(port),
    env: { HUB_CONFIG_DIR: configDir, HUB_SKIP_PKG_DISCOVERY: "1", NO_COLOR: "1" },
    cwd: ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: "squatter-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    assert((await client.listTools()).tools.length > 0, "the bridge works with the real hub");
    assertEquals(await hub.stop(), 0, hub.output());
    hub = undefined;
    squatter = startSquatter("garbage", { port });
    const outcome = await client.listTools().then(() => "answered", (e: Error) => e.message);
    assertNothingLeaked(squatter, secret, "the stdio bridge after a hub restart");
    assertOnlyChallenged(squatter, "the stdio bridge after a hub restart");
    assertMatch(outcome, UNPROVEN);
    assert(squatter.challenges() >= 1, "the bridge asked the squatter to prove itself");

    // One that claims to have no secret gets no request either (not even one without a token).
    squatter.mode = "no-secret";
    const asked = squatter.challenges();
    const claim = await client.callTool({ name: "plugin_list_tabs", arguments: {} }).then(
      () => "answered",
      (e: Error) => e.message,
    );
    assertNothingLeaked(squatter, secret, "the stdio bridge, no-secret squatter");
    assertOnlyChallenged(squatter, "the stdio bridge, no-secret squatter");
    assertMatch(claim, UNPROVEN);
    assertMatch(claim, CLAIMS_NO_SECRET);
    assert(
      squatter.challenges() > asked,
      "the bridge asked the no-secret squatter to prove itself",
    );
  } finally {
    await client.close();
    await squatter?.stop();
    await hub?.stop();
    await Deno.remove(configDir, { recursive: true });
  }
});

const gate = browserGate(import.meta.url);

/** Points the installed extension at `port` (it reads server.json before every attempt). */
async function pointExtensionAt(configDir: string, port: number) {
  await Deno.writeTextFile(join(configDir, "extension", "server.json"), JSON.stringify({ port }));
}

Deno.test({
  name:
    "the extension in Chromium never offers a squatter the secret, and still connects to the hub",
  ignore: gate.ignore,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    gate.check();
    const configDir = await tempConfigDir();
    const hub = await startHub({ configDir });
    const squatter = startSquatter("relay", { relayTo: hub.port });
    await pointExtensionAt(configDir, squatter.port);
    const browser = await launchWithExtension(join(configDir, "extension"));
    try {
      // Several reconnect cycles (1 s, 2 s, 3 s apart) with the relaying squatter, then garbage.
      const cycles = async (n: number) => {
        await eventually(
          () => Promise.resolve(squatter.challenges() >= n || squatter.offers.length > 0),
          () => `the extension asked the squatter ${squatter.challenges()} times`,
          60_000,
        );
        assertNothingLeaked(squatter, hub.secret, "the extension");
        assertOnlyChallenged(squatter, `the extension (${squatter.mode})`);
      };
      await cycles(3);
      squatter.mode = "garbage";
      await cycles(squatter.challenges() + 2);
      // One that claims to have no secret is not dialled without one either.
      squatter.mode = "no-secret";
      await cycles(squatter.challenges() + 2);

      // The side panel says why, in words a person can act on.
      const worker = await browser.serviceWorker();
      const page = await browser.context.newPage();
      await page.goto(`chrome-extension://${new URL(worker.url()).host}/panel.html`);
      const problem = page.getByTestId("problem");
      const shown = () => page.getByTestId("problem-message").innerText().catch(() => "");
      await eventually(
        async () =>
          (await problem.getAttribute("data-kind").catch(() => null)) === "not_hub" &&
          CLAIMS_NO_SECRET.test(await shown()),
        async () => `the panel shows: ${await page.locator("body").innerText()}`,
      );
      const message = await shown();
      assertMatch(
        message,
        new RegExp(`Another program is on port ${squatter.port}: it did not prove`),
      );
      assertMatch(message, CLAIMS_NO_SECRET);
      assertMatch(await page.getByTestId("problem-fix").innerText(), /lsof -i/);
      assertNothingLeaked(squatter, hub.secret, "the extension's diagnosis");
      assertOnlyChallenged(squatter, "the extension's diagnosis");

      // Pointed back at the real hub, the same extension connects.
      await pointExtensionAt(configDir, hub.port);
      await eventually(
        () => Promise.resolve(hub.output().includes("Extension connected")),
        () => `the extension did not connect to the real hub:\n${hub.output()}`,
        60_000,
      );
      assertOnlyChallenged(squatter, "the extension, at the end");
      assertNothingLeaked(squatter, hub.secret, "the extension, at the end");
    } finally {
      await browser.close();
      await squatter.stop();
      assertEquals(await hub.stop(), 0, hub.output());
      await Deno.remove(configDir, { recursive: true });
    }
  },
});
