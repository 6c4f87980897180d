import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { riskLevel } from '../../../server/src/rules/util/risk';
import { analyse } from './harness';

const tool = (name: string, annotations: string, body = 'return { content: [] };') => `
server.registerTool("${name}", { description: "d", inputSchema: { id: z.string() }${annotations ? `, annotations: ${annotations}` : ''} },
  async ({ id }) => { ${body} });`;

const src = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import * as fs from "node:fs";
const server = new McpServer({ name: "r", version: "1" });
${tool('get_order', '')}
${tool('create_note', '')}
${tool('delete_note', '')}
${tool('send_invoice', '')}
${tool('delete_remote_backup', '{ readOnlyHint: false, destructiveHint: true, openWorldHint: true }')}
${tool('sync_calendar', '{ readOnlyHint: false, destructiveHint: false, openWorldHint: true }')}
${tool('grant_access', '')}
${tool('tidy_workspace', '', 'fs.unlinkSync(id); return { content: [] };')}
${tool('create_report', '{ readOnlyHint: true }')}
`;

test('risk level: annotations win, the name and the handler fill the gaps', () => {
  const { result } = analyse('/tmp/risk-fixture.ts', src);
  const level = (n: string) => riskLevel(result.tools.find((t) => t.name.value === n)!).level;
  assert.equal(level('get_order'), 'Low');
  assert.equal(level('create_note'), 'Medium');
  assert.equal(level('delete_note'), 'High');
  assert.equal(level('send_invoice'), 'Critical');
  assert.equal(level('delete_remote_backup'), 'Critical');
  assert.equal(level('sync_calendar'), 'High');
  assert.equal(level('grant_access'), 'High');
  assert.equal(level('tidy_workspace'), 'High', 'the handler deletes files');
  assert.equal(level('create_report'), 'Low', 'readOnlyHint: true is what the author declared');
  const why = riskLevel(result.tools.find((t) => t.name.value === 'tidy_workspace')!).reasons.join('; ');
  assert.match(why, /fs\.unlinkSync/);
});
