/**
 * What a hub process reads from its environment for telemetry, once at start: the variables of the
 * on/off decision, debug mode, and the endpoint. The config's `telemetry` field is not here: the
 * running hub reads it again before every send.
 */
import { envFlag, type TelemetryEnv, telemetryEnv } from "./decision.ts";
import {
  type EndpointChoice,
  resolveTelemetryEndpoint,
  TELEMETRY_ENDPOINT_ENV,
} from "./endpoint.ts";

export interface TelemetrySettings {
  env: TelemetryEnv;
  /** `HUB_TELEMETRY_DEBUG=1`: print each event to stderr as one JSON line and send nothing. */
  debug: boolean;
  endpoint: EndpointChoice;
}

export function telemetrySettingsFromEnv(
  get: (name: string) => string | undefined,
): TelemetrySettings {
  return {
    env: telemetryEnv(get),
    debug: envFlag(get("HUB_TELEMETRY_DEBUG")),
    endpoint: resolveTelemetryEndpoint(get(TELEMETRY_ENDPOINT_ENV)),
  };
}
