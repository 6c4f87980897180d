/**
 * The text of a new .vscode/mcp.json (VS Code's format: `servers`), written from the servers Toolsmith detected in
 * the workspace's sources, each with the launch the playground would use. Without vscode, for unit tests.
 */
import * as path from 'node:path';
import type { ServerConfig } from './discovery';

/** `root`-relative paths become `${workspaceFolder}/...`, so the file works in every clone. */
function portable(root: string, value: string): string {
  if (!path.isAbsolute(value)) return value;
  const rel = path.relative(root, value);
  if (rel === '') return '${workspaceFolder}';
  if (rel.startsWith('..') || path.isAbsolute(rel)) return value;
  return `\${workspaceFolder}/${rel.split(path.sep).join('/')}`;
}

/** A short name for a detected server: its top folder in the workspace (helpdesk-ts/src/server.ts -> helpdesk-ts). */
function serverName(root: string, sourceFile: string): string {
  const parts = path.relative(root, sourceFile).split(path.sep);
  return parts.length > 1 ? parts[0] : path.basename(sourceFile, path.extname(sourceFile));
}

export function mcpJsonFromDetected(root: string, detected: readonly ServerConfig[]): string {
  const servers: Record<string, { type: 'stdio'; command: string; args: string[]; cwd?: string }> = {};
  for (const c of detected) {
    if (!c.detected) continue;
    const base = serverName(root, c.detected.sourceFile);
    let name = base;
    for (let i = 2; name in servers; i++) name = `${base}-${i}`;
    servers[name] = {
      type: 'stdio',
      command: portable(root, c.command),
      args: c.args.map((a) => portable(root, a)),
      ...(c.cwd && path.resolve(c.cwd) !== path.resolve(root) ? { cwd: portable(root, c.cwd) } : {}),
    };
  }
  if (Object.keys(servers).length === 0) {
    return [
      '{',
      '  // Each MCP server on stdio: the command and arguments that start it. ${workspaceFolder} is this folder.',
      '  // Example: "my-server": { "type": "stdio", "command": "node", "args": ["${workspaceFolder}/dist/server.js"] }',
      '  "servers": {}',
      '}',
      '',
    ].join('\n');
  }
  return `${JSON.stringify({ servers }, null, 2)}\n`;
}
