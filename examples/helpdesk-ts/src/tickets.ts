// An in-memory ticket store: enough to make the helpdesk server really work in the playground.
export interface Ticket {
  id: string;
  title: string;
  status: 'open' | 'closed';
  customer: string;
  notes: string[];
}

const tickets = new Map<string, Ticket>(
  [
    { id: 'T-1001', title: 'Cannot log in after password reset', status: 'open', customer: 'ada@example.com', notes: [] },
    { id: 'T-1002', title: 'Invoice PDF shows the wrong VAT rate', status: 'open', customer: 'grace@example.com', notes: [] },
    { id: 'T-1003', title: 'Export to CSV times out on large projects', status: 'open', customer: 'linus@example.com', notes: [] },
    { id: 'T-1004', title: 'Password reset email never arrives', status: 'closed', customer: 'alan@example.com', notes: ['Spam filter, resolved.'] },
  ].map((t) => [t.id, t as Ticket]),
);

export function searchTickets(text: string, limit: number): Ticket[] {
  const needle = text.toLowerCase();
  return [...tickets.values()].filter((t) => t.title.toLowerCase().includes(needle)).slice(0, limit);
}

export function getTicket(id: string): Ticket | undefined {
  return tickets.get(id);
}
