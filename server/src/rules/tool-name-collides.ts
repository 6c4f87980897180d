import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';

/** Tool names of widely installed servers (the reference servers of modelcontextprotocol/servers and GitHub's). */
// prettier-ignore
const WELL_KNOWN: Record<string, readonly string[]> = {
  'server-filesystem': ['read_file', 'read_text_file', 'read_media_file', 'read_multiple_files', 'write_file', 'edit_file', 'create_directory', 'list_directory', 'list_directory_with_sizes', 'directory_tree', 'move_file', 'search_files', 'get_file_info', 'list_allowed_directories'],
  'server-memory': ['create_entities', 'create_relations', 'add_observations', 'delete_entities', 'delete_observations', 'delete_relations', 'read_graph', 'search_nodes', 'open_nodes'],
  'server-fetch': ['fetch'],
  'server-git': ['git_status', 'git_diff_unstaged', 'git_diff_staged', 'git_diff', 'git_commit', 'git_add', 'git_reset', 'git_log', 'git_create_branch', 'git_checkout', 'git_show', 'git_branch'],
  'server-time': ['get_current_time', 'convert_time'],
  'server-github': ['create_or_update_file', 'search_repositories', 'create_repository', 'get_file_contents', 'push_files', 'create_issue', 'create_pull_request', 'fork_repository', 'create_branch', 'list_commits', 'list_issues', 'update_issue', 'add_issue_comment', 'search_code', 'search_issues', 'search_users', 'get_issue', 'get_pull_request', 'list_pull_requests', 'merge_pull_request'],
  'server-puppeteer': ['puppeteer_navigate', 'puppeteer_screenshot', 'puppeteer_click', 'puppeteer_fill', 'puppeteer_select', 'puppeteer_hover', 'puppeteer_evaluate'],
  'server-brave-search': ['brave_web_search', 'brave_local_search'],
  'server-sequential-thinking': ['sequentialthinking'],
};

const OWNER = new Map<string, string>();
for (const [server, names] of Object.entries(WELL_KNOWN)) for (const n of names) OWNER.set(n, server);

export const toolNameCollides: Rule = {
  id: 'tool-name-collides',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A tool name that a widely installed server already uses (read_file, fetch, create_issue...).',
  checkServer(tools) {
    const owners = tools.map((t) => (t.name.value ? OWNER.get(t.name.value) : undefined));
    // A server whose names are mostly one well-known server's is that server (or its fork): nothing collides.
    const counts = new Map<string, number>();
    for (const o of owners) if (o) counts.set(o, (counts.get(o) ?? 0) + 1);
    const out: RuleFinding[] = [];
    tools.forEach((t, i) => {
      const owner = owners[i];
      if (!owner || (counts.get(owner) ?? 0) * 2 >= tools.length) return;
      out.push(
        finding(
          t,
          t.name.span,
          `"${t.name.value!}" is also a tool of ${owner}, which many users run next to yours: with both connected the model sees two tools of ` +
            `one name (clients that do not prefix names keep one of them) and may call the wrong one. Give it a name of your domain.`,
        ),
      );
    });
    return out;
  },
};
