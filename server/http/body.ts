/** Reads a JSON request body with a size cap; bad input becomes a 400/413 that says what to send. */
import { hubError } from "../../protocol/errors.ts";
import { concatBytes } from "../../protocol/bytes.ts";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * The body as text, read chunk by chunk with a running byte count: a body over `maxBytes` is
 * refused as soon as the count passes the limit (or at once when Content-Length says so), and the
 * rest is never read, whether or not the client declared a length (chunked bodies).
 */
async function readText(req: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => hubError("BODY_TOO_LARGE", `The request body is over ${maxBytes} bytes.`);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(concatBytes(chunks));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw hubError(
      "INVALID_JSON",
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

export async function readJsonBody(req: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, maxBytes);
  if (text.trim() === "") {
    throw hubError("INVALID_JSON", "The request body is empty; send a JSON object.");
  }
  return parse(text);
}

/** Like `readJsonBody`, but an empty body is undefined. */
export async function readOptionalJsonBody(
  req: Request,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<unknown> {
  const text = await readText(req, maxBytes);
  return text.trim() === "" ? undefined : parse(text);
}
