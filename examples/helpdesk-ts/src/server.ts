// Helpdesk MCP server (TypeScript SDK v2: @modelcontextprotocol/server, zod 4) — the TypeScript half of the MCP Toolsmith demo.
// It works, but its contract carries a few deliberate flaws for Toolsmith to flag (marked "flaw:" below).
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { getTicket, searchTickets } from './tickets.js';

const server = new McpServer({ name: 'helpdesk', version: '0.1.0' });

// flaw: a vague name ("query" says nothing about tickets) and a description too short to tell the model when to
// use the tool or what it returns; `text` has no description and no length bound; `limit` is a float with no range.
server.registerTool(
  'query',
  {
    description: 'Searches the tickets.',
    inputSchema: z.object({
      text: z.string(),
      limit: z.number().default(10),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ text, limit }) => {
    const found = searchTickets(text, limit);
    const lines = found.map((t) => `${t.id} [${t.status}] ${t.title} (${t.customer})`);
    return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : `No ticket matches "${text}".` }] };
  },
);

// flaw: a writing tool without annotations — the client cannot tell that it changes data.
server.registerTool(
  'add_note',
  {
    title: 'Add a note to a ticket',
    description:
      'Appends an internal note to a helpdesk ticket. Use when you learned something about the issue that the next ' +
      'agent should know. Returns the number of notes the ticket now has.',
    inputSchema: z.object({
      ticket_id: z.string().regex(/^T-\d+$/).describe('Ticket id as shown by the search, e.g. "T-1001".'),
      note: z.string().min(1).max(2000).describe('The note text, in plain sentences.'),
    }),
  },
  async ({ ticket_id, note }) => {
    const ticket = getTicket(ticket_id);
    if (!ticket) {
      return { isError: true, content: [{ type: 'text', text: `No ticket ${ticket_id}. Search the tickets first to find its id.` }] };
    }
    ticket.notes.push(note);
    return { content: [{ type: 'text', text: `Ticket ${ticket_id} now has ${ticket.notes.length} note(s).` }] };
  },
);

// flaw: the "not found" and "already closed" errors come back as ordinary results (no isError), so the model
// believes the call succeeded.
server.registerTool(
  'close_ticket',
  {
    title: 'Close a ticket',
    description:
      'Closes a helpdesk ticket once the customer problem is solved. Use only after confirming the fix with the ' +
      'customer; do not use to hide duplicates. Returns a confirmation line with the ticket id.',
    inputSchema: z.object({
      ticket_id: z.string().regex(/^T-\d+$/).describe('Ticket id as shown by the search, e.g. "T-1001".'),
      resolution: z.string().min(1).max(500).describe('One sentence on how the problem was solved.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async ({ ticket_id, resolution }) => {
    const ticket = getTicket(ticket_id);
    if (!ticket) {
      return { content: [{ type: 'text', text: JSON.stringify({ error: `ticket ${ticket_id} not found` }) }] };
    }
    if (ticket.status === 'closed') {
      return { content: [{ type: 'text', text: JSON.stringify({ error: 'already closed' }) }] };
    }
    ticket.status = 'closed';
    ticket.notes.push(`Resolution: ${resolution}`);
    return { content: [{ type: 'text', text: `Ticket ${ticket_id} closed.` }] };
  },
);

await server.connect(new StdioServerTransport());
