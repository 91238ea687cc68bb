/** The two tools of gateway mode (`/mcp/gateway`): `hub_list_tools` and `hub_call` (docs/http.md). */
export const GATEWAY_TOOLS = [
  {
    name: "hub_list_tools",
    description: "List the tools hub can run in the user's browser: name, description, input " +
      "schema, plugin and permission (off tools are marked [Disabled]). Then run one with hub_call.",
    inputSchema: {
      type: "object" as const,
      properties: {
        plugin: {
          type: "string",
          description: 'Only tools of this plugin ("browser" for built-in browser tools).',
        },
      },
    },
  },
  {
    name: "hub_call",
    description: "Run a tool listed by hub_list_tools. Returns the tool's result unchanged.",
    inputSchema: {
      type: "object" as const,
      properties: {
        tool: { type: "string", description: "Tool name, e.g. github__list_issues." },
        arguments: {
          type: "object",
          description: "The tool's arguments, matching its input schema.",
          additionalProperties: true,
        },
      },
      required: ["tool"],
    },
  },
];
