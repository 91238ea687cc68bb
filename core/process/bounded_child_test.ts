import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { runBounded } from "./bounded_child.ts";
import { npmErrorCode, npmErrorText, npmRunner } from "./npm_runner.ts";

const posix = Deno.build.os !== "windows";

/** Whether `pid` is still running (a zombie waiting for its parent to reap it is not). */
async function alive(pid: number): Promise<boolean> {
  const out = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).output();
  const stat = new TextDecoder().decode(out.stdout).trim();
  return stat !== "" && !stat.startsWith("Z");
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hub-bounded-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "bounded child: exit code and both outputs pass through, in an empty folder of its own",
  ignore: !posix,
  fn: async () => {
    const result = await runBounded(
      "sh",
      ["-c", "pwd; ls -A; echo oops >&2; exit 3"],
      10_000,
    );
    assertEquals([result.code, result.timedOut, result.stderr], [3, false, "oops\n"]);
    const [dir, ...entries] = result.stdout.trim().split("\n");
    assert(dir !== Deno.cwd(), dir);
    assertEquals(entries, ["node_modules"], "an empty node_modules stops npm's search upwards");
    assertEquals(await Deno.stat(dir).then(() => true, () => false), false, "removed afterwards");
  },
});

Deno.test({
  name: "bounded child: a timeout stops the child and the processes it started, at the deadline",
  ignore: !posix,
  fn: () =>
    withTemp(async (dir) => {
      const pidFile = join(dir, "pid");
      const started = Date.now();
      const result = await runBounded(
        "sh",
        ["-c", `sleep 30 & echo $! > ${pidFile}; sleep 30`],
        500,
        { killGraceMs: 1_000 },
      );
      const took = Date.now() - started;
      assertEquals(result.timedOut, true);
      assert(took >= 500 && took < 4_000, `took ${took} ms`);
      const grandchild = Number(await Deno.readTextFile(pidFile));
      assertEquals(await alive(grandchild), false, "the grandchild was stopped too");
    }),
});

Deno.test({
  name: "bounded child: a process that escaped the tree and holds the pipes open does not hold " +
    "the call past its deadline",
  ignore: !posix,
  fn: () =>
    withTemp(async (dir) => {
      const pidFile = join(dir, "pid");
      const pidFile2 = join(dir, "pid2");
      // The subshell exits at once, so its sleep is no longer a descendant but keeps stdout open.
      const script = `(sleep 30 & echo $! > ${pidFile}); echo started; sleep 30`;
      const started = Date.now();
      try {
        const result = await runBounded("sh", ["-c", script], 500, { killGraceMs: 500 });
        const took = Date.now() - started;
        assertEquals([result.timedOut, result.stdout], [true, "started\n"]);
        assert(took < 4_000, `took ${took} ms`);
        // Exited on its own while the escaped process still holds the pipe: a short grace only.
        const quick = Date.now();
        const exited = await runBounded(
          "sh",
          ["-c", `(sleep 30 & echo $! > ${pidFile2}); echo done`],
          20_000,
        );
        assertEquals([exited.code, exited.timedOut, exited.stdout], [0, false, "done\n"]);
        assert(Date.now() - quick < 5_000, `took ${Date.now() - quick} ms`);
      } finally {
        for (const file of [pidFile, pidFile2]) {
          const pid = await Deno.readTextFile(file).catch(() => "");
          if (pid.trim()) await new Deno.Command("kill", { args: [pid.trim()] }).output();
        }
      }
    }),
});

Deno.test({
  name: "bounded child: output over the cap is cut and fails with a clear npm-style error",
  ignore: !posix,
  fn: async () => {
    const result = await runBounded("sh", ["-c", "yes hello"], 10_000, {
      outputCapBytes: 1000,
      killGraceMs: 500,
    });
    assertEquals([result.timedOut, result.code, result.stdout.length], [false, 1, 1000]);
    assertEquals(npmErrorCode(result), "EOUTPUTLIMIT");
    assertMatch(npmErrorText(result), /wrote more than .* MB to its output, so hub stopped it/);
  },
});

Deno.test("npm runner: a missing program is a user error", async () => {
  const error = await npmRunner("hub-test-no-such-npm")(["--version"], 5_000).then(
    () => undefined,
    (e: Error) => e,
  );
  assertMatch(String(error?.message), /not on the PATH/);
});
