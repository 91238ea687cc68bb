/** Reads a JSON file with errors that name the file, the line and the column. */
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
