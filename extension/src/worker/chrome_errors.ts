/**
 * Reading Chrome's errors: the messages chrome.scripting gives when the document (or frame) a
 * script was sent to is gone, in one place for every caller that must tell them apart.
 */

/**
 * Chrome refusing a script because its document or frame went away meanwhile (the tab or frame
 * navigated, the frame was removed): nothing ran there.
 */
const DOCUMENT_GONE = /No document with id|Frame with ID \d+ was removed|No frame with id/i;

/** Whether `error` is Chrome saying the document or frame a script was sent to is gone. */
export function isDocumentGone(error: unknown): boolean {
  return DOCUMENT_GONE.test(String((error as Error)?.message ?? ""));
}
