/** How nyzhi introduces itself to MCP servers (`initialize` clientInfo). */
export const NYZHI_CLIENT_INFO = { name: "nyzhi", version: "0.1.0" } as const;
