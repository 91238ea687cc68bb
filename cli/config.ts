/** `hub config show|set|path|reset|rotate-secret`. */
import { generateSecret, readSecret, redactSecret, writeSecret } from "../server/config/secret.ts";
import { CliError } from "./cli_error.ts";
import { cliClient, cliConfigStore, cliPaths, notifyHub } from "./context.ts";
import { parseSetCommand } from "./config_keys.ts";
import { HubClient } from "./hub_client.ts";

export async function configShow(options: { json?: boolean; showSecret?: boolean }) {
  const paths = cliPaths();
  const store = cliConfigStore(paths);
  const config = await store.load();
  const secret = await readSecret(paths.auth);
  const shownSecret = options.showSecret ? (secret ?? null) : redactSecret(secret);
  if (options.json) {
    console.log(JSON.stringify({ path: paths.config, config, secret: shownSecret }, null, 2));
    return;
  }
  const exists = await store.exists();
  console.log(
    `Config file: ${paths.config}${exists ? "" : " (not created yet; showing defaults)"}`,
  );
  console.log(
    `Secret:      ${shownSecret ?? "(none)"}${
      options.showSecret ? "" : "  (--show-secret prints it)"
    }`,
  );
  console.log(JSON.stringify(config, null, 2));
}

export async function configSet(
  key: string,
  value: string | undefined,
  options: { force?: boolean; port?: string },
) {
  const paths = cliPaths();
  const change = parseSetCommand(key, value, {
    cwd: Deno.cwd(),
    configDir: paths.dir,
    force: options.force === true,
    isDirectory: (p) => {
      try {
        return Deno.statSync(p).isDirectory;
      } catch {
        return false;
      }
    },
  });
  await Deno.mkdir(paths.dir, { recursive: true, mode: 0o700 });
  await cliConfigStore(paths).update(change.apply);
  console.log(`Saved ${change.summary} in ${paths.config}.`);
  await notifyHub(await cliClient(options.port, paths));
}

export function configPath() {
  console.log(cliPaths().config);
}

export async function configReset(options: { confirm?: boolean; port?: string }) {
  const paths = cliPaths();
  if (!options.confirm) {
    throw new CliError(
      `This deletes ${paths.config} (permissions, settings, local plugins). ` +
        `Nothing was changed; run "hub config reset --confirm" to do it.`,
    );
  }
  const client = await cliClient(options.port, paths);
  const existed = await cliConfigStore(paths).remove();
  console.log(
    existed
      ? `Deleted ${paths.config}. It is recreated with defaults on the next "hub start"; ` +
        `the secret in ${paths.auth} is unchanged.`
      : `${paths.config} did not exist; nothing to reset.`,
  );
  if (existed) await notifyHub(client);
}

export async function configRotateSecret(options: { confirm?: boolean; port?: string }) {
  const paths = cliPaths();
  if (!options.confirm) {
    throw new CliError(
      "This replaces the secret: every MCP client must then be given the new one. " +
        'Nothing was changed; run "hub config rotate-secret --confirm" to do it.',
    );
  }
  const oldClient = await cliClient(options.port, paths); // holds the old secret
  const secret = generateSecret();
  await writeSecret(paths.auth, secret);
  console.log(`Wrote a new secret to ${paths.auth}.`);
  const res = await oldClient.request("POST", "/reload").catch(() => undefined);
  if (res?.status === 200) {
    const check = await new HubClient(oldClient.port, secret).request("GET", "/health");
    if (check?.status !== 200) {
      throw new CliError("The running hub reloaded but does not accept the new secret yet.");
    }
    console.log(`The running hub on port ${oldClient.port} now uses the new secret.`);
  } else if (res) {
    console.error(
      `warning: the running hub on port ${oldClient.port} could not be told (HTTP ${res.status}); ` +
        `restart it to use the new secret.`,
    );
  }
  console.log(
    'Update your MCP clients: "hub start --show-config" prints their new configuration.',
  );
}
