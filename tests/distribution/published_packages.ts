/**
 * The release side of the distribution suites: `@tabhub/hub` and `@tabhub/sdk` built from this
 * checkout (npm/build.ts, sdk/build_package.ts) and published to the test registry, and a global
 * install of the wrapper from it, the way a user installs hub.
 */
import { join } from "node:path";
import { buildHubPackage } from "../../npm/build.ts";
import { stopBundler } from "../../npm/bundle.ts";
import { installedSize } from "../../npm/package_checks.ts";
import { buildSdkPackage } from "../../sdk/build_package.ts";
import { VERSION } from "../../protocol/version.ts";
import { globalBin, globalRoot, noDenoPath, npmInstallGlobal } from "../helpers/npm_install.ts";
import type { TestRegistry } from "../helpers/registry.ts";

export const HUB_PACKAGE = "@tabhub/hub";
const MB = 1024 * 1024;

/** Builds `@tabhub/hub` as `version` into `<work>/hub-<version>` and publishes it. */
export async function publishHub(
  registry: TestRegistry,
  work: string,
  version: string = VERSION,
): Promise<void> {
  const started = performance.now();
  const built = await buildHubPackage({
    outDir: join(work, `hub-${version}`),
    npmEnv: registry.env(),
    version,
  });
  const builtAt = performance.now();
  await registry.publish(built.outDir);
  console.log(
    `${HUB_PACKAGE}@${version}: built in ${seconds(builtAt - started)}, published in ` +
      `${seconds(performance.now() - builtAt)}`,
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Builds `@tabhub/sdk` into `<work>/sdk` and publishes it. */
export async function publishSdk(registry: TestRegistry, work: string): Promise<void> {
  const outDir = join(work, "sdk");
  const started = performance.now();
  try {
    await buildSdkPackage(outDir);
  } finally {
    await stopBundler(); // the SDK build leaves esbuild's service running
  }
  await registry.publish(outDir);
  console.log(
    `@tabhub/sdk@${VERSION}: built and published in ${seconds(performance.now() - started)}`,
  );
}

export interface InstalledHub {
  prefix: string;
  /** `<prefix>/bin`: `hub`, `hub-plugin`, and the bins of plugin packages. */
  bin: string;
  /** `<prefix>/lib/node_modules`, where hub finds plugin packages. */
  root: string;
  packageDir: string;
  /** A PATH with node, npm, ps, kill and sh, and no Deno. */
  noDenoPath: string;
  seconds: number;
  /** Installed bytes of the package and its dependencies, without the Deno binary. */
  bytes: number;
  denoBytes: number;
}

/**
 * `npm i -g --prefix <work>/prefix @tabhub/hub@<version>` from the test registry; measures how
 * long it took and how much it put on disk, and prints both.
 */
export async function installHub(
  registry: TestRegistry,
  work: string,
  version: string = VERSION,
): Promise<InstalledHub> {
  const prefix = join(work, "prefix");
  const { seconds } = await npmInstallGlobal(prefix, `${HUB_PACKAGE}@${version}`, registry.env());
  const root = globalRoot(prefix);
  const packageDir = join(root, HUB_PACKAGE);
  const size = await installedSize(packageDir);
  console.log(
    `npm i -g ${HUB_PACKAGE}@${version} from the local registry: ${seconds.toFixed(1)} s, ` +
      `${(size.bytes / MB).toFixed(1)} MB installed beside the Deno binary ` +
      `(${(size.denoBytes / MB).toFixed(0)} MB)`,
  );
  return {
    prefix,
    bin: globalBin(prefix),
    root,
    packageDir,
    noDenoPath: await noDenoPath(join(work, "no-deno")),
    seconds,
    bytes: size.bytes,
    denoBytes: size.denoBytes,
  };
}
