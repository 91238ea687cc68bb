/**
 * Finding the handler for an incoming JSON-RPC message in a method table (protocol/events.ts):
 * the handler call with validated params, or the error the sender gets. Both ends of `/ws` use
 * it, so a bad message is judged and explained the same way on either side.
 */
import type { z } from "zod";
import { describeIssues } from "./events.ts";
import { RPC_ERRORS, type RpcNotification, type RpcRequest } from "./rpc.ts";

export interface MethodSpec {
  type: "request" | "notification";
  params: z.ZodType;
}

export type ResolvedMethod = { run: () => unknown } | { code: number; problem: string };

/** `who` names the receiver in "not available in this version of <who>". */
export function resolveMethod(
  table: Record<string, MethodSpec>,
  handlers: Record<string, ((params: never) => unknown) | undefined>,
  message: RpcRequest | RpcNotification,
  type: "request" | "notification",
  who: string,
): ResolvedMethod {
  const method = message.method;
  const spec = Object.hasOwn(table, method) ? table[method] : undefined;
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
  if (!spec) {
    const known = Object.keys(table).join(", ");
    return {
      code: RPC_ERRORS.METHOD_NOT_FOUND,
      problem: `Unknown method "${method}". Methods: ${known}.`,
    };
  }
  if (spec.type !== type) {
    const fix = spec.type === "notification" ? '; send it without an "id"' : "";
    return {
      code: RPC_ERRORS.METHOD_NOT_FOUND,
      problem: `Unknown ${type} "${method}": ${method} is a ${spec.type}${fix}.`,
    };
  }
  if (!handler) {
    return {
      code: RPC_ERRORS.METHOD_NOT_FOUND,
      problem: `${method} is not available in this version of ${who}.`,
    };
  }
  const parsed = spec.params.safeParse(message.params ?? {});
  if (!parsed.success) {
    return {
      code: RPC_ERRORS.INVALID_PARAMS,
      problem: `Invalid params for ${method}: ${describeIssues(parsed.error)}`,
    };
  }
  return { run: () => (handler as (params: unknown) => unknown)(parsed.data) };
}
