/**
 * zod for plugin authors, switched to jitless mode before any schema exists: pages with a strict
 * Content-Security-Policy forbid `eval`/`new Function`, which zod would otherwise use to speed up
 * object parsing. A namespace import, so that a bundle keeps only the parts of zod it uses
 * (plugin_cli/zod_import.ts).
 */
import * as z from "zod";

z.config({ jitless: true });

export { z };
