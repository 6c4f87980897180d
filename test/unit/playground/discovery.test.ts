// Discovery of the workspace's MCP servers, on real folders written to a temp dir.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  discoverConfigured,
  detectCandidate,
  candidateConfigs,
  describeLaunch,
  resolveLaunch,
  parseEnvFile,
  LaunchCancelled,
  type ServerConfig,
  type WorkspaceReader,
  type ResolveContext,
} from '../../../client/src/servers/discovery';
import { maskEnv, maskText } from '../../../client/src/servers/secrets';
import { writeTree } from '../../util/tree';

function workspace(files: Record<string, string>): WorkspaceReader {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-disc-'));
  writeTree(root, files);
  return {
    root,
    readText: async (p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined),
    exists: async (p) => fs.existsSync(p),
  };
}

function ctx(ws: WorkspaceReader, answers: Record<string, string | undefined> = {}, asked: string[] = []): ResolveContext {
  return {
    workspaceFolder: ws.root,
    env: { HOME: '/home/ada', API_BASE: 'https://api.example' },
    promptInput: async (input) => {
      asked.push(input.id);
      return answers[input.id];
    },
    readText: ws.readText,
    inputCache: new Map(),
  };
}

describe('configured servers', () => {
  test('.vscode/mcp.json with comments, stdio entries, variables, envFile and inputs', async () => {
    const ws = workspace({
      '.vscode/mcp.json': `{
        // VS Code's format
        "inputs": [{ "type": "promptString", "id": "api-key", "description": "API key", "password": true }],
        "servers": {
          "weather": {
            "type": "stdio",
            "command": "\${workspaceFolder}/.venv/bin/python",
            "args": ["server.py", "--base", "\${env:API_BASE}"],
            "env": { "API_KEY": "\${input:api-key}", "MODE": "dev" },
            "envFile": "\${workspaceFolder}/.env.local",
            "cwd": "\${workspaceFolder}/py",
          },
          "remote": { "type": "http", "url": "https://example.invalid/mcp" },
          "socket": { "type": "ws", "url": "ws://example.invalid/mcp" },
        },
      }`,
      '.env.local': 'export DB_URL="postgres://x"\nMODE=from-file # overridden\n# comment\nQUOTED=\'a b\'\n',
    });
    const found = await discoverConfigured(ws, {});
    assert.deepEqual(
      found.servers.map((s) => s.id),
      ['.vscode/mcp.json:weather', '.vscode/mcp.json:remote'],
    );
    assert.equal(found.servers[1].url, 'https://example.invalid/mcp');
    assert.equal(found.servers[1].transport, 'http');
    assert.deepEqual(found.skipped, [{ name: 'socket', origin: '.vscode/mcp.json', reason: 'type "ws" is not supported by the playground (stdio, http and sse only)' }]);
    const asked: string[] = [];
    const c = ctx(ws, { 'api-key': 'sk-123456' }, asked);
    const spec = await resolveLaunch(found.servers[0], c);
    assert.deepEqual(spec, {
      command: `${ws.root}/.venv/bin/python`,
      args: ['server.py', '--base', 'https://api.example'],
      env: { DB_URL: 'postgres://x', MODE: 'dev', QUOTED: 'a b', API_KEY: 'sk-123456' },
      cwd: `${ws.root}/py`,
      // The api-key input is declared password: true.
      secrets: ['sk-123456'],
    });
    // A restart reuses the answer instead of asking again.
    await resolveLaunch(found.servers[0], c);
    assert.deepEqual(asked, ['api-key']);
  });

  test('a cancelled ${input:...} prompt cancels the launch', async () => {
    const ws = workspace({ '.vscode/mcp.json': '{"servers":{"s":{"command":"node","env":{"T":"${input:tok}"}}}}' });
    const found = await discoverConfigured(ws, {});
    await assert.rejects(resolveLaunch(found.servers[0], ctx(ws, {})), LaunchCancelled);
  });

  test('root .mcp.json and mcp.json (mcpServers), and the toolsmith.servers setting', async () => {
    const ws = workspace({
      '.mcp.json': '{"mcpServers":{"a":{"command":"npx","args":["tsx","src/a.ts"]}}}',
      'mcp.json': '{"mcpServers":{"b":{"command":"uv","args":["run","b.py"]}, "c":{"url":"http://x"}}}',
    });
    const found = await discoverConfigured(ws, { extra: { command: 'node', args: ['dist/x.js'] }, broken: { args: [] } });
    assert.deepEqual(
      found.servers.map((s) => `${s.origin}:${s.name}:${s.command || s.url}`),
      ['.mcp.json:a:npx', 'mcp.json:b:uv', 'mcp.json:c:http://x', 'setting:extra:node'],
    );
    assert.deepEqual(
      found.skipped.map((s) => `${s.name}: ${s.reason}`),
      ['broken: no "command"'],
    );
  });

  test('a broken config file is reported, not thrown', async () => {
    const ws = workspace({ '.vscode/mcp.json': '{"servers": {' });
    const found = await discoverConfigured(ws, undefined);
    assert.equal(found.servers.length, 0);
    assert.match(found.problems[0].message, /mcp\.json is not valid JSON/);
  });
});

describe('detected candidates', () => {
  test('TS files that connect an McpServer to stdio; Python files that run an MCPServer/FastMCP on stdio', () => {
    assert.equal(
      detectCandidate(
        '/w/src/index.ts',
        `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\nconst s = new McpServer({name:"x",version:"1"});\nawait s.connect(new StdioServerTransport());`,
      ),
      'typescript',
    );
    assert.equal(detectCandidate('/w/src/tools.ts', `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport function register(s: McpServer) {}`), undefined);
    assert.equal(detectCandidate('/w/server.py', 'from mcp.server import MCPServer\nmcp = MCPServer("x")\nif __name__ == "__main__":\n    mcp.run()\n'), 'python');
    assert.equal(detectCandidate('/w/app.py', 'from fastmcp import FastMCP\napp = FastMCP("x")\napp.run(transport="stdio")\n'), 'python');
    assert.equal(detectCandidate('/w/web.py', 'from fastmcp import FastMCP\napp = FastMCP("x")\napp.run(transport="http", port=8000)\n'), undefined);
    assert.equal(detectCandidate('/w/lib.py', 'from fastmcp import FastMCP\napp = FastMCP("x")\n'), undefined);
  });

  test('run with the workspace venv Python / tsx; configured servers hide their candidate; confirmation is remembered', async () => {
    const ws = workspace({
      'py/.venv/bin/python': '',
      'py/server.py': '',
      'node_modules/.bin/tsx': '',
      'src/index.ts': '',
      'other/main.ts': '',
    });
    const configured = (await discoverConfigured(ws, { other: { command: 'tsx', args: ['${workspaceFolder}/other/main.ts'] } })).servers;
    const found = [
      { file: path.join(ws.root, 'py/server.py'), language: 'python' as const },
      { file: path.join(ws.root, 'src/index.ts'), language: 'typescript' as const },
      { file: path.join(ws.root, 'other/main.ts'), language: 'typescript' as const },
    ];
    const out = await candidateConfigs(ws, found, configured, new Set(['src/index.ts']));
    assert.deepEqual(
      out.map((c) => ({ id: c.id, command: path.relative(ws.root, c.command), args: c.args.map((a) => path.relative(ws.root, a)), confirmed: c.detected?.confirmed })),
      [
        { id: 'detected:py/server.py', command: 'py/.venv/bin/python', args: ['py/server.py'], confirmed: false },
        { id: 'detected:src/index.ts', command: 'node_modules/.bin/tsx', args: ['src/index.ts'], confirmed: true },
      ],
    );
  });
});

describe('secrets and env files', () => {
  test('every env value is masked in env listings and in free text, whatever its name (DATABASE_URL, GITHUB_PAT)', () => {
    const env = { GITHUB_TOKEN: 'ghp_abcdef', DATABASE_URL: 'postgres://app:s3cret@db/app', GITHUB_PAT: 'github_pat_11AB', MODE: 'dev', PWD: '/w' };
    assert.deepEqual(maskEnv(env), { GITHUB_TOKEN: '****', DATABASE_URL: '****', GITHUB_PAT: '****', MODE: '****', PWD: '****' });
    assert.equal(maskText('auth with ghp_abcdef, github_pat_11AB to postgres://app:s3cret@db/app in dev', { env }), 'auth with ****, **** to **** in dev');
  });

  test('a password ${input:} is masked wherever it lands: an argument, the command line, an env var of any name', async () => {
    const config: ServerConfig = {
      id: 'db',
      name: 'db',
      origin: 'mcp.json',
      command: 'node',
      args: ['server.js', '--token', '${input:token}', '--region', '${input:region}'],
      env: { CONN: 'user:${input:token}@host' },
      inputs: [
        { id: 'token', type: 'promptString', password: true },
        { id: 'region', type: 'promptString' },
      ],
      watchRoot: '/w',
    };
    const answers: Record<string, string> = { token: 'tok-9f8e7d', region: 'eu-west' };
    const spec = await resolveLaunch(config, { workspaceFolder: '/w', env: {}, readText: async () => undefined, promptInput: async (i) => answers[i.id] });
    assert.deepEqual(spec.args, ['server.js', '--token', 'tok-9f8e7d', '--region', 'eu-west']);
    const shown = maskText(describeLaunch(spec), spec);
    assert.ok(!shown.includes('tok-9f8e7d'), shown);
    assert.ok(shown.includes('eu-west'), 'a value that is not a password stays readable');
    assert.equal(maskText('stderr: connecting with tok-9f8e7d', spec), 'stderr: connecting with ****');
    assert.deepEqual(maskEnv(spec.env), { CONN: '****' });
  });

  test('dotenv parsing', () => {
    assert.deepEqual(parseEnvFile('A=1\n  export B = "two\\nlines"\nC=x # note\n#D=4\nbad line\n'), { A: '1', B: 'two\nlines', C: 'x' });
  });
});
