/**
 * The side panel (panel.html): connects to the service worker over `PANEL_PORT`, renders every
 * state push into the views, and sends the person's choices back as commands. It never talks to
 * the hub itself.
 */
import { activityView } from "./activity_view.ts";
import { confirmationsView } from "./confirmations_view.ts";
import { connectionView } from "./connection_view.ts";
import { setText, shown } from "./dom.ts";
import { createPanelClient, type PortLike } from "./panel_client.ts";
import { PANEL_PORT, type PanelState } from "../shared/panel_messages.ts";
import { pluginsView } from "./plugins_view.ts";
import { debuggerSection } from "./debugger_view.ts";
import { searchView } from "./search_view.ts";
import { sitesSection } from "./sites_view.ts";
import type { ViewContext } from "./view_context.ts";

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`panel.html has no #${id}`);
  return el;
}

/** Says `text` through a live region; clearing first makes a repeated message heard again. */
function announcer(): ViewContext["announce"] {
  const polite = byId("announce-polite");
  const assertive = byId("announce-assertive");
  return (text, urgent = false) => {
    const region = urgent ? assertive : polite;
    region.textContent = "";
    setTimeout(() => (region.textContent = shown(text)), 50);
  };
}

function main() {
  let send: ViewContext["send"] = () => Promise.reject(new Error("Not connected yet."));
  const ctx: ViewContext = {
    send: (command) => send(command),
    announce: announcer(),
    now: () => Date.now(),
  };
  const connection = connectionView(ctx);
  const confirmations = confirmationsView(ctx);
  const find = searchView(ctx);
  const plugins = pluginsView(ctx);
  const activity = activityView(ctx);
  const debuggerPart = debuggerSection(ctx);
  const sites = sitesSection(ctx);
  byId("connection-slot").replaceChildren(connection.el);
  byId("main").replaceChildren(
    confirmations.el,
    find.el,
    plugins.el,
    sites.el,
    debuggerPart.el,
    activity.el,
  );
  const versions = byId("versions");

  function render(state: PanelState) {
    const hub = state.hub ? ` · hub ${state.hub.version}` : "";
    setText(versions, `extension ${state.extensionVersion}${hub}`);
    document.body.dataset.link = state.link.state;
    connection.update(state);
    confirmations.update(state);
    find.update(state);
    plugins.update(state);
    sites.update(state);
    debuggerPart.update(state);
    activity.update(state);
    document.body.dataset.ready = "true";
  }

  const client = createPanelClient(
    () => chrome.runtime.connect({ name: PANEL_PORT }) as unknown as PortLike,
    { onState: render },
  );
  send = (command) => client.send(command);
  setInterval(() => {
    connection.tick();
    confirmations.tick();
    find.tick();
    sites.tick();
    activity.tick();
  }, 1000);
  addEventListener("pagehide", () => client.close());
}

main();
