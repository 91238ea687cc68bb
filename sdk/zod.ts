/**
 * zod for plugin authors, switched to jitless mode before any schema exists: pages with a strict
 * Content-Security-Policy forbid `eval`/`new Function`, which zod would otherwise use to speed up
 * object parsing.
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };
