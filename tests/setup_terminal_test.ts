/**
 * `hub setup` with no client named, on a terminal (a pseudo-terminal from util-linux `script`): it
 * asks one question listing the clients it found; "y" sets them all up, the default (Enter) changes
 * nothing. The question must be hub's own: no Deno permission prompt may come before it.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { exists, HUB_CHILD_ENV, ROOT, taskPermissionFlags } from "./helpers/hub_process.ts";
import {
  entryOf,
  homeEnv,
  hubIn,
  makeHome,
  type TempHome,
  USER_CASES,
} from "./helpers/setup_home.ts";

const SCRIPT = "/usr/bin/script";
const hasScript = Deno.build.os === "linux" && (await exists(SCRIPT));

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** Runs `hub setup` in a pseudo-terminal, answers its question with `answer`; returns the output. */
async function setupOnTerminal(
  h: TempHome,
  answer: string,
): Promise<{ code: number; out: string }> {
  const line = [
    Deno.execPath(),
    "run",
    "--quiet",
    ...taskPermissionFlags(),
    join(ROOT, "main.ts"),
    "setup",
  ].map(quote).join(" ");
  const child = new Deno.Command(SCRIPT, {
    args: ["-qec", line, "/dev/null"],
    env: { ...HUB_CHILD_ENV, ...homeEnv(h), HUB_CONFIG_DIR: h.configDir },
    cwd: h.project,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const pump = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) out += chunk;
  })();
  const errors = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  const stop = async () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // exited already
    }
    await Promise.all([child.status, pump, errors]);
  };
  try {
    const deadline = Date.now() + 30_000;
    while (!/\[y\/N\]/.test(out) && !/\[y\/n\/A\]/.test(out) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert(!/\[y\/n\/A\]/.test(out), `Deno asked for a permission before hub's question:\n${out}`);
    assertMatch(out, /\[y\/N\]/);
    await writer.write(new TextEncoder().encode(`${answer}\n`));
    await writer.close();
  } catch (error) {
    await stop();
    throw error;
  }
  const { code } = await child.status;
  await pump;
  await errors;
  return { code, out };
}

async function withDetected(fn: (h: TempHome) => Promise<void>): Promise<void> {
  const h = await makeHome();
  try {
    const created = await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    assertEquals(created.code, 0, created.stderr);
    await Deno.mkdir(join(h.home, ".cursor"));
    await Deno.mkdir(join(h.home, ".gemini"));
    await fn(h);
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
}

const cursor = USER_CASES.find((c) => c.id === "cursor")!;
const gemini = USER_CASES.find((c) => c.id === "gemini")!;

Deno.test({
  name: "hub setup on a terminal: one question naming the clients found; y sets them up",
  ignore: !hasScript,
  fn: () =>
    withDetected(async (h) => {
      const { code, out } = await setupOnTerminal(h, "y");
      assertEquals(code, 0, out);
      assertMatch(out, /cursor.*gemini|gemini.*cursor/);
      for (const c of [cursor, gemini]) {
        assert(entryOf(c, await Deno.readTextFile(c.path(h))), `${c.id}: ${out}`);
      }
      assertEquals(await exists(join(h.home, ".codex")), false, "only the clients found");
    }),
});

Deno.test({
  name: "hub setup on a terminal: the default answer changes nothing",
  ignore: !hasScript,
  fn: () =>
    withDetected(async (h) => {
      const { out } = await setupOnTerminal(h, "");
      assertEquals(await exists(cursor.path(h)), false, out);
      assertEquals(await exists(gemini.path(h)), false, out);
    }),
});
