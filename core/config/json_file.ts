/** Reading files: text that may not exist yet, and JSON with errors that name the file and spot. */
import { describeJsonError } from "./config_store.ts";

/** Reads and parses `path`; throws an Error saying which file and where it is broken. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new Error(`${path} does not exist`);
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${path} is not valid JSON${describeJsonError(text, (error as Error).message)}`,
    );
  }
}

/** The file's text, or undefined when it does not exist; other errors are thrown. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
