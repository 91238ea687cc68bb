/** Reads a JSON request body with a size cap; bad input becomes a 400/413 that says what to send. */
import { HttpError } from "./http_error.ts";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(req: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    throw new HttpError(413, "BODY_TOO_LARGE", `The request body is over ${maxBytes} bytes.`);
  }
  const text = await req.text();
  if (new TextEncoder().encode(text).length > maxBytes) {
    throw new HttpError(413, "BODY_TOO_LARGE", `The request body is over ${maxBytes} bytes.`);
  }
  if (text.trim() === "") {
    throw new HttpError(400, "INVALID_JSON", "The request body is empty; send a JSON object.");
  }
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
