/** What the method table says about one browser method. */
import type { z } from "zod";

export interface BrowserMethodSpec {
  /**
   * The input: field descriptions, defaults and limits. The hub derives the tool's JSON Schema
   * from it and parses arguments with it; the extension parses `tool.dispatch` input with it
   * again, so a method's handler receives the parsed value (defaults applied).
   */
  input: z.ZodObject;
}
