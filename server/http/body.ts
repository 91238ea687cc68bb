/** Reads a JSON request body with a size cap; bad input becomes a 400/413 that says what to send. */
import { HttpError } from "./http_error.ts";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

async function readText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  const tooLarge = () =>
    new HttpError(413, "BODY_TOO_LARGE", `The request body is over ${maxBytes} bytes.`);
  if (declared > maxBytes) throw tooLarge();
  const text = await req.text();
  if (new TextEncoder().encode(text).length > maxBytes) throw tooLarge();
  return text;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      "INVALID_JSON",
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

export async function readJsonBody(req: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, maxBytes);
  if (text.trim() === "") {
    throw new HttpError(400, "INVALID_JSON", "The request body is empty; send a JSON object.");
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
