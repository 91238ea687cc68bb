/**
 * The fast path's seam of one session (the default): the session's front (front.ts) answers what
 * it can — `tools/call`, `tools/list`, `ping` (fast_request.ts says which), and the resume of a
 * stream it is still writing — and everything else goes to the SDK's seam behind it. A cancel
 * reaches the front's calls only in a POST the SDK accepted (headers, version, body).
 */
import type { McpFront } from "./front.ts";
import type { McpSeam } from "./seam.ts";

export function fastSeam(front: McpFront, sdk: McpSeam): McpSeam {
  return {
    async handle(req, context = {}) {
      if (req.method === "POST") {
        const answered = front.answer(req, context.parsedBody);
        if (answered) return await answered;
      }
      if (context.resumeFrom) {
        const resumed = front.resume(context.resumeFrom, req);
        if (resumed) return resumed;
      }
      const response = await sdk.handle(req, context);
      if (req.method === "POST" && response.status < 300) front.noteCancels(context.parsedBody);
      return response;
    },
  };
}
