// Real contracts for the view-model tests: tools registered on the TypeScript SDK's McpServer and read back with the
// SDK's own Client (in memory). Nothing here is a hand-written contract.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JsonSchema } from '../../../server/src/analysis/model';

export async function liveContracts(register: (server: McpServer) => void): Promise<JsonSchema[]> {
  const server = new McpServer({ name: 'test', version: '1.0.0' });
  register(server);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const { tools } = await client.listTools();
  await client.close();
  await server.close();
  // Through JSON, as on the wire: the in-memory transport would otherwise keep keys whose value is undefined.
  return JSON.parse(JSON.stringify(tools)) as JsonSchema[];
}
