/**
 * The newest MCP protocol version the server speaks (the SDK's LATEST_PROTOCOL_VERSION, checked by a
 * test): what it answers a client that asks for it or for a version it does not know. A constant
 * here so discovery documents can name it without loading the SDK at start-up.
 */
export const MCP_PROTOCOL_VERSION = '2025-11-25';
