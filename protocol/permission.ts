/**
 * A tool's permission, the one definition every part uses: `off` refuses its calls, `ask` has the
 * person confirm each call in the side panel, `auto` runs it at once (docs/decisions/
 * 007-permissions-and-reviews.md).
 */
import * as z from "zod";

export const PERMISSIONS = ["off", "ask", "auto"] as const;
export type Permission = typeof PERMISSIONS[number];

/** A permission in a config file or a `/ws` message. */
export const permissionSchema = z.enum(PERMISSIONS);

export function isPermission(value: unknown): value is Permission {
  return (PERMISSIONS as readonly unknown[]).includes(value);
}
