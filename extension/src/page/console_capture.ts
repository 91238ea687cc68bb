/**
 * Content script (manifest: every site, top frame, `document_start`, the page's MAIN world):
 * starts recording the page's console before the page's own scripts run, for
 * browser_get_console_logs. Pages loaded before the extension was installed or reloaded have no
 * recorder until they are reloaded.
 */
import { installConsoleRecorder } from "./console_recorder.ts";

try {
  installConsoleRecorder(globalThis as unknown as Parameters<typeof installConsoleRecorder>[0]);
} catch {
  // never disturb the page
}
