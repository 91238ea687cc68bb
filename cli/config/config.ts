/** `hub config show|set|path|reset|rotate-secret`. */
import { generateSecret, readSecret, redactSecret, writeSecret } from "../../core/config/secret.ts";
import { UserError } from "../../core/cli/user_error.ts";
import {
  cliClient,
  cliConfigStore,
  cliPaths,
  notifyHub,
  userCwd,
} from "../../core/client/client_context.ts";
import { grantedPlugin, parseSetCommand } from "./keys.ts";
import { servedIdentity } from "./served_source.ts";
import { siteLines } from "./site_keys.ts";
import { HubClient } from "../../core/client/hub_client.ts";

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
  console.log(siteLines(config).join("\n"));
  console.log(JSON.stringify(config, null, 2));
}

export async function configSet(
  key: string,
  value: string | undefined,
  options: { force?: boolean; port?: string },
) {
  const paths = cliPaths();
  // A grant by name binds to the source serving the name now (never to one that loads later).
  const plugin = grantedPlugin(key, value);
  const served = plugin === undefined
    ? undefined
    : await servedIdentity(plugin, options.port).catch(() => undefined);
  const change = parseSetCommand(key, value, {
    served,
    // The user's folder: `deno task --cwd <hub>` and npm scripts run elsewhere, with INIT_CWD set.
    cwd: userCwd(),
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
  const client = await cliClient(options.port, paths); // before a port change
  await Deno.mkdir(paths.dir, { recursive: true, mode: 0o700 });
  await cliConfigStore(paths).update(change.apply);
  console.log(`Saved ${change.summary} in ${paths.config}.`);
  await notifyHub(client);
}

export function configPath() {
  console.log(cliPaths().config);
}

export async function configReset(options: { confirm?: boolean; port?: string }) {
  const paths = cliPaths();
  if (!options.confirm) {
    throw new UserError(
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
    throw new UserError(
      "This replaces the secret: every MCP client must then be given the new one. " +
        'Nothing was changed; run "hub config rotate-secret --confirm" to do it.',
    );
  }
  const port = (await cliClient(options.port, paths)).port;
  const secret = generateSecret();
  await writeSecret(paths.auth, secret);
  console.log(`Wrote a new secret to ${paths.auth}.`);
  // A running hub follows auth.json, so it already accepts only the new secret; the reload
  // notice (sent with it) proves that and lets the hub tell the extension.
  const client = new HubClient(port, secret);
  if (await client.isUp()) {
    await notifyHub(client);
    const check = await client.request("GET", "/ws-info");
    if (check?.status !== 200) {
      throw new UserError(
        `The hub on port ${port} does not accept the new secret (HTTP ${check?.status}). ` +
          `Restart it: "hub stop" then "hub start".`,
      );
    }
    console.log(`The running hub on port ${port} now uses the new secret.`);
  }
  // Clients set up with the old secret are found as `hub doctor` finds them, and updated by
  // `hub setup` (asked on a terminal).
  const { offerSetup } = await import("../setup/rotate_offer.ts");
  await offerSetup(port, secret, options.port);
}
