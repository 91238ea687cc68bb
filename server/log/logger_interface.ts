/**
 * What the hub's parts need of a logger: four levels, one message each. Declared apart from
 * the implementation (./logger.ts, which filters by level, redacts and rotates server.log), so the
 * layers above depend on this shape only.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
