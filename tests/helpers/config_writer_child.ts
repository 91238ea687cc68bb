/**
 * A child process for crash tests: `burst <configDir>` rewrites config.json and auth.json in a
 * tight loop (printing "ready" after the first round); `hold <configDir>` takes the config lock
 * and keeps it (printing "holding"). The test kills it with SIGKILL at any moment.
 */
import { createConfigStore } from "../../core/config/config_store.ts";
import { withFileLock } from "../../core/files/file_lock.ts";
import { hubPaths } from "../../core/config/paths.ts";
import { generateSecret, writeSecret } from "../../core/config/secret.ts";

const [mode, dir] = Deno.args;
const paths = hubPaths(dir);
const say = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

if (mode === "hold") {
  await withFileLock(`${paths.config}.lock`, async () => {
    say("holding");
    await new Promise(() => setInterval(() => {}, 1_000)); // until killed
  });
} else {
  const store = createConfigStore(paths.config);
  for (let round = 0;; round++) {
    await Promise.all([
      store.update((config) => {
        config.settings.burst = { round };
      }),
      round % 3 === 0 ? writeSecret(paths.auth, generateSecret()) : Promise.resolve(),
    ]);
    if (round === 0) say("ready");
  }
}
