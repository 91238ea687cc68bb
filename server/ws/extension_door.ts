/**
 * Where the extension's WebSocket comes in: takes an authenticated `/ws` upgrade, hands the socket
 * to the link, and remembers the secret it connected with. After the secret rotated (auth.json
 * changed and the hub reloaded) that socket is closed with CLOSE_SECRET_ROTATED, so the extension
 * reconnects at once with the new secret instead of holding a connection the old one opened.
 */
import { CLOSE_SECRET_ROTATED } from "../../protocol/rpc.ts";
import type { ExtensionLink } from "./extension_link_interface.ts";
import { upgradeExtensionSocket } from "./ws_upgrade.ts";
import type { ExtensionDoor } from "./extension_door_interface.ts";

export function createExtensionDoor(
  link: Pick<ExtensionLink, "attach" | "isConnected" | "disconnect">,
  secret: () => string | undefined,
): ExtensionDoor {
  let linkSecret: string | undefined;
  return {
    connect(req) {
      const { socket, response } = upgradeExtensionSocket(req);
      linkSecret = secret();
      link.attach(socket);
      return response;
    },
    closeIfSecretRotated() {
      if (link.isConnected() && secret() !== linkSecret) {
        link.disconnect(CLOSE_SECRET_ROTATED, "secret rotated");
      }
    },
  };
}
