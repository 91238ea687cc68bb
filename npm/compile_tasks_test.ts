import { assertEquals } from "../tests/helpers/assert.ts";
import { baseBinaryProblem, runCompileTask } from "./compile_tasks.ts";

/** What deno 2.9 prints when dl.deno.land cannot be reached (colors included). */
const NO_DOWNLOAD = [
  "\x1b[0m\x1b[32mCompile\x1b[0m main.ts to dist/hub",
  "\x1b[0m\x1b[32mDownload\x1b[0m https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip",
  "\x1b[0m\x1b[1m\x1b[31merror\x1b[0m: Writing deno compile executable to temporary file 'dist/hub.tmp'",
  "",
  "Caused by:",
  "    0: Setting up base binary.",
  "    1: error sending request for url (https://dl.deno.land/x.zip): client error (Connect): " +
  "dns error: failed to lookup address information",
  "    2: client error (Connect)",
].join("\n");

Deno.test("a failed base binary download is recognized, with its cause", () => {
  assertEquals(
    baseBinaryProblem(NO_DOWNLOAD),
    "error sending request for url (https://dl.deno.land/x.zip): client error (Connect): " +
      "dns error: failed to lookup address information",
  );
  assertEquals(baseBinaryProblem('error: Module not found "file:///x/main.ts"'), undefined);
});

async function withTasks(tasks: Record<string, string>, fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "hub_compile_" });
  try {
    await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ tasks }));
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a compile task is built, skipped for the download, or failed for anything else", async () => {
  await withTasks({
    ok: "echo built",
    offline: `echo '${NO_DOWNLOAD.replaceAll("'", "")}' >&2 && exit 1`,
    broken: "echo 'error: main.ts: Type error' >&2 && exit 1",
  }, async (dir) => {
    assertEquals(await runCompileTask(dir, "ok"), { task: "ok", status: "built" });
    const offline = await runCompileTask(dir, "offline");
    assertEquals(offline.status, "skipped");
    assertEquals(
      "reason" in offline &&
        offline.reason.startsWith("deno compile cannot download its base binary here (error"),
      true,
    );
    const broken = await runCompileTask(dir, "broken");
    assertEquals(broken.status, "failed");
    assertEquals("reason" in broken && broken.reason.includes("Type error"), true);
  });
});

Deno.test("a compile task that hangs is stopped at the time limit", async () => {
  await withTasks({ hang: "sleep 30" }, async (dir) => {
    const started = Date.now();
    const outcome = await runCompileTask(dir, "hang", 500);
    assertEquals(outcome, {
      task: "hang",
      status: "failed",
      reason: "did not finish within 0.5 s",
    });
    assertEquals(Date.now() - started < 10_000, true);
  });
});
