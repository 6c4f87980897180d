/**
 * Every snippet, expanded with its defaults as VS Code would insert it and accepted as is, is a clean tool:
 * the analyser finds at least one tool in it and the rules report zero findings. The TypeScript snippets also
 * type-check against the real SDK and zod, the Python ones parse.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import ts from 'typescript';
import { analyzeFile } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { DEFAULT_SETTINGS } from '../../common/settings';

const root = path.resolve(__dirname, '../..');

interface Snippet {
  prefix: string | string[];
  description: string;
  body: string | string[];
}

/**
 * Expands a snippet body with its defaults: `${1:default}` (nested), `${1|a,b|}` (first choice), `$1`/`${1}`
 * (the default given elsewhere for that tab stop, else empty), `$0`, and the escapes `\$`, `\}`, `\\`.
 */
export function expandSnippet(body: string): string {
  const defaults = new Map<string, string>();
  // Pass 1 learns each tab stop's default; pass 2 uses it for mirrors written before the defining occurrence.
  const parse = (text: string, pos: number, stopAt: string | null): [string, number] => {
    let out = '';
    while (pos < text.length) {
      const ch = text[pos];
      if (ch === '\\' && pos + 1 < text.length && '$}\\'.includes(text[pos + 1])) {
        out += text[pos + 1];
        pos += 2;
      } else if (stopAt !== null && ch === stopAt) {
        return [out, pos + 1];
      } else if (ch === '$') {
        const simple = /^\$(\d+)/.exec(text.slice(pos));
        const braced = /^\$\{(\d+)(:|\||\})/.exec(text.slice(pos));
        if (simple) {
          out += defaults.get(simple[1]) ?? '';
          pos += simple[0].length;
        } else if (braced) {
          const [whole, n, kind] = braced;
          pos += whole.length;
          if (kind === '}') out += defaults.get(n) ?? '';
          else if (kind === ':') {
            const [inner, next] = parse(text, pos, '}');
            defaults.set(n, inner);
            out += inner;
            pos = next;
          } else {
            const end = text.indexOf('|}', pos);
            assert.ok(end > 0, `unterminated choice at ${pos}`);
            const first = text.slice(pos, end).split(',')[0];
            defaults.set(n, first);
            out += first;
            pos = end + 2;
          }
        } else {
          assert.ok(!/^\$[A-Za-z_{]/.test(text.slice(pos)), `unsupported snippet variable at: ${text.slice(pos, pos + 30)}`);
          out += ch;
          pos++;
        }
      } else {
        out += ch;
        pos++;
      }
    }
    assert.equal(stopAt, null, 'unterminated placeholder');
    return [out, pos];
  };
  parse(body, 0, null);
  return parse(body, 0, null)[0];
}

test('expandSnippet resolves placeholders, choices, mirrors and escapes', () => {
  assert.equal(expandSnippet('a ${1:x${2:y}} $2 ${3|p,q|} $1 \\$0 \\} $0'), 'a xy y p xy $0 } ');
});

const TS_PREAMBLE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'snippet-check', version: '0.0.0' });

`;
/** The same minimal server on the TypeScript SDK v2: every tool snippet must be clean and type-check on both lines. */
const TS_V2_PREAMBLE = `import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const server = new McpServer({ name: 'snippet-check', version: '0.0.0' });

`;
const TS_POSTAMBLE = `

await server.connect(new StdioServerTransport());
`;
const PY_PREAMBLE = `from typing import Annotated

from pydantic import Field

from mcp.server import MCPServer
from mcp.types import ToolAnnotations

mcp = MCPServer("snippet-check")


`;

function load(language: 'typescript' | 'python'): [string, Snippet][] {
  const file = path.join(root, 'snippets', `${language}.json`);
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Snippet>;
  return Object.entries(json);
}

/** The file a person gets: a whole-file snippet alone, a tool snippet inside a minimal server file. */
function asFile(language: 'typescript' | 'python', snippet: Snippet, sdk: 'v1' | 'v2' = 'v1'): string {
  const body = expandSnippet(Array.isArray(snippet.body) ? snippet.body.join('\n') : snippet.body);
  const wholeFile = /^(import |from |"""|')/m.test(body.split('\n')[0]) || /^from \w/m.test(body);
  if (language === 'typescript') return wholeFile ? body : (sdk === 'v2' ? TS_V2_PREAMBLE : TS_PREAMBLE) + body + TS_POSTAMBLE;
  return wholeFile ? body + '\n' : PY_PREAMBLE + body + '\n';
}

function typeErrors(file: string, text: string): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => (path.resolve(f) === file ? text : readFile(f));
  host.fileExists = (f) => path.resolve(f) === file || fileExists(f);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) => (path.resolve(f) === file ? ts.createSourceFile(f, text, lang) : getSourceFile(f, lang, ...rest));
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && path.resolve(d.file.fileName) === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

for (const language of ['typescript', 'python'] as const) {
  const snippets = load(language);
  test(`snippets/${language}.json has the snippets the product promises`, () => {
    assert.ok(snippets.length >= 4, `${snippets.length} snippets`);
    for (const [name, s] of snippets) {
      assert.ok(s.description && s.prefix && s.body, `${name} has prefix, description and body`);
      assert.ok((Array.isArray(s.body) ? s.body.join('\n') : s.body).includes('$0'), `${name} places the cursor ($0)`);
    }
  });

  const variants = (snippet: Snippet): ('v1' | 'v2')[] => {
    const first = (Array.isArray(snippet.body) ? snippet.body[0] : snippet.body).trimStart();
    return language === 'typescript' && first.startsWith('server.') ? ['v1', 'v2'] : ['v1'];
  };
  for (const [name, snippet] of snippets)
    for (const sdk of variants(snippet)) {
      test(`${language} snippet "${name}"${sdk === 'v2' ? ' on SDK v2' : ''}: expanded with its defaults, a tool with zero findings`, () => {
        const text = asFile(language, snippet, sdk);
        // A virtual file at the repository root: the workspace's package.json pins the SDK and zod versions.
        const file = path.join(root, `snippet-check.${language === 'typescript' ? 'mts' : 'py'}`);
        const analysis = analyzeFile(
          file,
          text,
          createFileHost((f) => (f === file ? text : undefined)),
          DEFAULT_SETTINGS,
        );
        assert.equal(analysis.internalError, undefined);
        assert.ok(analysis.result.tools.length >= 1, `the analyser finds a tool in:\n${text}`);
        if (sdk === 'v2')
          assert.ok(
            analysis.result.tools.every((t) => t.framework === 'ts-sdk-v2'),
            'analysed as an SDK v2 tool',
          );
        const findings = analysis.findings.map((f) => `${f.ruleId} (${f.severity}) on ${f.tool}: ${f.message}`);
        assert.deepEqual(findings, [], `zero findings expected in:\n${text}`);

        if (language === 'typescript') {
          assert.deepEqual(typeErrors(file, text), [], `the expanded snippet type-checks:\n${text}`);
        } else {
          const r = spawnSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: text, encoding: 'utf8' });
          assert.equal(r.status, 0, `the expanded snippet parses as Python:\n${r.stderr}`);
        }
      });
    }
}
