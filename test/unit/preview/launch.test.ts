// "Copy client configuration": the interpreter and the server file as absolute paths, in each client's format.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveLaunch, clientConfiguration, serverDisplayName, type SourceLaunch } from '../../../client/src/preview/launch';
import { writeTree } from '../../util/tree';

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-launch-'));
  writeTree(dir, files, { mode: 0o755 });
  return dir;
}

test('Python: the nearest virtual environment, absolute paths, for VS Code, Claude Desktop and Cursor', () => {
  const dir = tree({ '.venv/bin/python': '#!/bin/sh\n', 'weather/server.py': 'from mcp.server import MCPServer\n' });
  const spec = resolveLaunch(path.join(dir, 'weather', 'server.py'), { workspaceRoot: dir }) as SourceLaunch;
  assert.equal(spec.command, path.join(dir, '.venv', 'bin', 'python'));
  assert.deepEqual(spec.args, [path.join(dir, 'weather', 'server.py')]);
  assert.deepEqual(JSON.parse(clientConfiguration(spec, 'vscode')), { servers: { weather: { type: 'stdio', command: spec.command, args: spec.args } } });
  assert.deepEqual(JSON.parse(clientConfiguration(spec, 'claude')), { mcpServers: { weather: { command: spec.command, args: spec.args } } });
  assert.deepEqual(JSON.parse(clientConfiguration(spec, 'cursor')), { mcpServers: { weather: { command: spec.command, args: spec.args } } });
  fs.rmSync(dir, { recursive: true, force: true });
});

test('TypeScript: node with the workspace tsx, or the compiled outDir file when it exists', () => {
  const dir = tree({ 'node_modules/tsx/dist/cli.mjs': '', 'src/notes.ts': '', 'tsconfig.json': '{ // comment\n "compilerOptions": { "outDir": "build", "rootDir": "src", } }' });
  const viaTsx = resolveLaunch(path.join(dir, 'src', 'notes.ts'), { workspaceRoot: dir }) as SourceLaunch;
  assert.ok(path.isAbsolute(viaTsx.command) && /node$/.test(viaTsx.command), viaTsx.command);
  assert.deepEqual(viaTsx.args, [path.join(dir, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(dir, 'src', 'notes.ts')]);
  fs.mkdirSync(path.join(dir, 'build'));
  fs.writeFileSync(path.join(dir, 'build', 'notes.js'), '');
  const compiled = resolveLaunch(path.join(dir, 'src', 'notes.ts'), { workspaceRoot: dir }) as SourceLaunch;
  assert.deepEqual(compiled.args, [path.join(dir, 'build', 'notes.js')]);
  assert.equal(JSON.parse(clientConfiguration(compiled, 'claude')).mcpServers.notes.args[0], path.join(dir, 'build', 'notes.js'));
  fs.rmSync(dir, { recursive: true, force: true });
});

test('server names: the file stem, or the folder for generic stems', () => {
  assert.equal(serverDisplayName('/w/helpdesk-ts/src/server.ts'), 'helpdesk-ts');
  assert.equal(serverDisplayName('/w/docs-py/server.py'), 'docs-py');
  assert.equal(serverDisplayName('/w/tools/weather_api.py'), 'weather_api');
});
