// Real contracts for the view-model tests: tools registered on the TypeScript SDK's McpServer and read back with the
// SDK's own Client (in memory). Nothing here is a hand-written contract.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
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

/** The read-only tool the preview tests render: bounds, a default, an enum, a nested object and an output schema. */
export function registerSearchDocs(server: McpServer): void {
  server.registerTool(
    'search_docs',
    {
      title: 'Search docs',
      description: 'Search the documentation. Use when the user asks how something works. Returns titles and links.',
      inputSchema: {
        query: z.string().min(1).max(200).describe('Words to look for'),
        limit: z.number().int().min(1).max(50).default(10).describe('How many hits'),
        kind: z.enum(['guide', 'api']).optional(),
        filters: z.object({ tags: z.array(z.string()).max(5), since: z.iso.datetime().optional() }).optional(),
      },
      outputSchema: { hits: z.array(z.object({ title: z.string(), url: z.url() })) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => ({ content: [], structuredContent: { hits: [] } }),
  );
}

/** The prompts/list, resources/list and resources/templates/list entries of a real McpServer, read by the SDK's Client. */
export async function liveSurfaces(register: (server: McpServer) => void): Promise<{ prompts: JsonSchema[]; resources: JsonSchema[]; resourceTemplates: JsonSchema[] }> {
  const server = new McpServer({ name: 'test', version: '1.0.0' });
  register(server);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const caps = client.getServerCapabilities() ?? {};
  const prompts = caps.prompts ? (await client.listPrompts()).prompts : [];
  const resources = caps.resources ? (await client.listResources()).resources : [];
  const resourceTemplates = caps.resources ? (await client.listResourceTemplates()).resourceTemplates : [];
  await client.close();
  await server.close();
  return JSON.parse(JSON.stringify({ prompts, resources, resourceTemplates })) as { prompts: JsonSchema[]; resources: JsonSchema[]; resourceTemplates: JsonSchema[] };
}
