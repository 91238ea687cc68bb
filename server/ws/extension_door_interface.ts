/**
 * What the hub's parts need of the door the extension's WebSocket comes in through: take a `/ws`
 * upgrade, and close a connection the old secret opened. Declared apart from the implementation
 * (./extension_door.ts), so changes/ and the routes depend on this shape only.
 */
export interface ExtensionDoor {
  /** Takes over a `/ws` upgrade request; returns the 101 response. */
  connect(req: Request): Response;
  /** Closes the extension's connection when it was opened with a secret other than the current. */
  closeIfSecretRotated(): void;
}
