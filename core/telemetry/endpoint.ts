/**
 * Where telemetry goes: one endpoint, whose host is the only one outside loopback that the hub's
 * network permission names (cli/server/deno_permissions.ts). `HUB_TELEMETRY_ENDPOINT` overrides it for tests;
 * an override Deno would refuse anyway (not loopback, not this host) is refused here with a reason.
 */
import { clipForMessage } from "../../protocol/clip.ts";
import { isLoopbackHost, LOOPBACK_HOSTS } from "../../protocol/loopback.ts";

export const TELEMETRY_ENDPOINT = "https://telemetry.tabhub.dev/v1/events";
/** The host of TELEMETRY_ENDPOINT: the one extra host of `--allow-net`. */
export const TELEMETRY_HOST = new URL(TELEMETRY_ENDPOINT).hostname;
/** The environment variable that replaces the endpoint (tests point it at a local receiver). */
export const TELEMETRY_ENDPOINT_ENV = "HUB_TELEMETRY_ENDPOINT";

export type EndpointChoice = { endpoint: string } | { refused: string };

/** The endpoint to send to: the constant, or an allowed override (empty counts as unset). */
export function resolveTelemetryEndpoint(override: string | undefined): EndpointChoice {
  if (override === undefined || override.trim() === "") return { endpoint: TELEMETRY_ENDPOINT };
  let url: URL;
  try {
    url = new URL(override.trim());
  } catch {
    return { refused: refusal(override, "it is not a URL") };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { refused: refusal(override, "it must start with http:// or https://") };
  }
  if (!isLoopbackHost(url.hostname) && url.hostname !== TELEMETRY_HOST) {
    return {
      refused: refusal(
        override,
        `hub may only reach loopback (${[...LOOPBACK_HOSTS].join(", ")}) or ${TELEMETRY_HOST}`,
      ),
    };
  }
  return { endpoint: url.href };
}

function refusal(value: string, why: string): string {
  return `${TELEMETRY_ENDPOINT_ENV}="${clipForMessage(value)}" is refused: ${why}. ` +
    `Telemetry sends nothing in this run; unset ${TELEMETRY_ENDPOINT_ENV} to use the default.`;
}
