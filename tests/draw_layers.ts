/**
 * Prints the structure drawing of server/ from the real imports (`deno task layers`): each layer
 * of SERVER_LAYERS (tests/helpers/layering_rules.ts), top first, with the entries it imports. An
 * arrow running up or sideways is marked `↑`; tests/layering_test.ts fails on it.
 */
import { repositoryGraph } from "./helpers/import_graph.ts";
import { serverLayerDrawing } from "./helpers/layering_rules.ts";

console.log(serverLayerDrawing(await repositoryGraph()));
