/**
 * The injection grammar, tokenised by the same engine VS Code uses (vscode-textmate + vscode-oniguruma) on top of
 * the real Python / TypeScript / JavaScript grammars (tm-grammars, the VS Code grammars): docstring sections and
 * the parameters they document are highlighted in Python, tool-name strings in registerTool calls in TS/JS, and
 * the host grammar's own highlighting around them is left intact.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vsctm from 'vscode-textmate';
import * as oniguruma from 'vscode-oniguruma';

const root = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { grammars: { scopeName: string; path: string; injectTo: string[] }[] };
};
const contribution = manifest.contributes.grammars.find((g) => g.scopeName === 'toolsmith.injection');
assert.ok(contribution, 'package.json contributes the toolsmith.injection grammar');
const ourGrammar = path.join(root, contribution.path);

const hostGrammars: Record<string, string> = {
  'source.python': require.resolve('tm-grammars/grammars/python.json'),
  'source.ts': require.resolve('tm-grammars/grammars/typescript.json'),
  'source.js': require.resolve('tm-grammars/grammars/javascript.json'),
};

const onigLib = (async () => {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  return {
    createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
    createOnigString: (s: string) => new oniguruma.OnigString(s),
  };
})();

const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scopeName) => {
    const file = scopeName === 'toolsmith.injection' ? ourGrammar : hostGrammars[scopeName];
    return file ? vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file) : null;
  },
  // As VS Code does from contributes.grammars[].injectTo.
  getInjections: (scopeName) => (contribution.injectTo.includes(scopeName) ? ['toolsmith.injection'] : undefined),
});

interface Token {
  text: string;
  line: number;
  scopes: string[];
}

async function tokenize(scopeName: string, source: string): Promise<Token[]> {
  const grammar = await registry.loadGrammar(scopeName);
  assert.ok(grammar, `grammar ${scopeName}`);
  const out: Token[] = [];
  let state = vsctm.INITIAL;
  source.split('\n').forEach((lineText, line) => {
    const r = grammar.tokenizeLine(lineText, state);
    for (const t of r.tokens) out.push({ text: lineText.slice(t.startIndex, t.endIndex), line, scopes: t.scopes });
    state = r.ruleStack;
  });
  return out;
}

/** Scopes of the `nth` token whose text is exactly `text`. */
function scopesOf(tokens: Token[], text: string, nth = 0): string[] {
  const found = tokens.filter((t) => t.text === text);
  assert.ok(found.length > nth, `a token "${text}" (#${nth}) among ${JSON.stringify(tokens.map((t) => t.text))}`);
  return found[nth].scopes;
}
const has = (scopes: string[], prefix: string) => scopes.some((s) => s === prefix || s.startsWith(`${prefix}.`));
function assertScope(tokens: Token[], text: string, prefix: string, nth = 0) {
  const scopes = scopesOf(tokens, text, nth);
  assert.ok(has(scopes, prefix), `"${text}" has ${prefix}: ${scopes.join(' ')}`);
}
function assertNoScope(tokens: Token[], text: string, prefix: string, nth = 0) {
  const scopes = scopesOf(tokens, text, nth);
  assert.ok(!has(scopes, prefix), `"${text}" must not have ${prefix}: ${scopes.join(' ')}`);
}

const PYTHON = `@mcp.tool()
def grep_docs(pattern: str, max_results: int = 20) -> str:
    """Search the documentation.

    Args:
        pattern (str): Text to look for.
        max_results: How many matching lines to return.
            Note: continues the entry above.

    Returns:
        list[str]: the matching lines.

    Raises:
        ToolError: when the pattern is empty.
    """
    body = """Args:
    fake: not a docstring"""
    return body


def read_doc(path):
    """Read one page.

    :param str path: page path
    :raises FileNotFoundError: when missing
    """
`;

test('python: docstring section headers are highlighted', async () => {
  const tokens = await tokenize('source.python', PYTHON);
  assertScope(tokens, 'Args', 'keyword.other.section.docstring.toolsmith');
  assertScope(tokens, 'Returns', 'keyword.other.section.docstring.toolsmith');
  assertScope(tokens, 'Raises', 'keyword.other.section.docstring.toolsmith');
  // still inside the docstring as far as the Python grammar is concerned
  assert.ok(has(scopesOf(tokens, 'Args'), 'string.quoted.docstring'));
});

test('python: Args entries highlight the parameter names and types, not their continuation lines', async () => {
  const tokens = await tokenize('source.python', PYTHON);
  assertScope(tokens, 'pattern', 'variable.parameter.docstring.toolsmith', 1); // #0 is the signature's
  assertScope(tokens, 'max_results', 'variable.parameter.docstring.toolsmith', 1);
  assertScope(tokens, 'str', 'entity.name.type.docstring.toolsmith', 2); // #0, #1 are the signature's
  assert.ok(!tokens.some((t) => t.text === 'Note' && has(t.scopes, 'variable.parameter')), 'a continuation line is not a parameter');
  // the signature itself keeps Python's own scopes
  assertScope(tokens, 'pattern', 'variable.parameter.function.language.python', 0);
});

test('python: Returns types and Raises exceptions are highlighted', async () => {
  const tokens = await tokenize('source.python', PYTHON);
  assertScope(tokens, 'list[str]', 'entity.name.type.docstring.toolsmith');
  assertScope(tokens, 'ToolError', 'support.type.exception.docstring.toolsmith');
});

test('python: Sphinx fields are highlighted too', async () => {
  const tokens = await tokenize('source.python', PYTHON);
  assertScope(tokens, 'param', 'keyword.other.section.docstring.toolsmith');
  assertScope(tokens, 'path', 'variable.parameter.docstring.toolsmith', 1);
  assertScope(tokens, 'FileNotFoundError', 'support.type.exception.docstring.toolsmith');
});

test('python: plain strings are not docstrings, and the code after a docstring is untouched', async () => {
  const tokens = await tokenize('source.python', PYTHON);
  const fake = tokens.find((t) => t.text.includes('fake'));
  assert.ok(fake && !fake.scopes.some((s) => s.endsWith('.toolsmith')), `"fake" is plain string: ${fake?.scopes.join(' ')}`);
  assert.ok(!tokens.filter((t) => t.line === 15).some((t) => t.scopes.some((s) => s.endsWith('.toolsmith'))), 'line 16 has no toolsmith scope');
  assertScope(tokens, 'return', 'keyword.control.flow.python');
  assertScope(tokens, '"""', 'punctuation.definition.string.end.python', 1);
});

const TS = `server.registerTool('search_tickets', { description: 'Searches tickets.' }, async () => ({ content: [] }));
server.registerTool(
  "close_ticket",
  {
    description: 'Closes a ticket.',
  },
  async () => ({ content: [] }),
);
server.registerTool(TOOL_NAME, { title: 'dynamic' }, handler);
server.tool(\`legacy_tool\`, 'Deprecated overload.', handler);
lookup('not_a_tool');
// server.registerTool('commented_out', {});
`;

for (const scopeName of ['source.ts', 'source.js']) {
  test(`${scopeName}: the tool-name string of registerTool is highlighted, on the call's line or the next`, async () => {
    const tokens = await tokenize(scopeName, TS);
    assertScope(tokens, 'search_tickets', 'entity.name.function.tool-name.toolsmith');
    assertScope(tokens, 'close_ticket', 'entity.name.function.tool-name.toolsmith');
    assertScope(tokens, 'legacy_tool', 'entity.name.function.tool-name.toolsmith');
  });

  test(`${scopeName}: other strings, comments and the rest of the call keep the host grammar's scopes`, async () => {
    const tokens = await tokenize(scopeName, TS);
    assertNoScope(tokens, 'Searches tickets.', 'entity.name.function.tool-name');
    assertNoScope(tokens, 'Closes a ticket.', 'entity.name.function.tool-name');
    assertNoScope(tokens, 'not_a_tool', 'entity.name.function.tool-name');
    assert.ok(!tokens.some((t) => t.text.includes('commented_out') && has(t.scopes, 'entity.name.function.tool-name')));
    // The multi-line call's config object is still an object literal with a key (host state intact).
    assertScope(tokens, 'description', 'meta.object-literal.key', 1);
    assertScope(tokens, 'TOOL_NAME', 'variable.other.constant');
    assertScope(tokens, 'registerTool', 'entity.name.function', 2);
  });
}

test('examples: every tool name of the demo servers is highlighted', async () => {
  const tsTokens = await tokenize('source.ts', fs.readFileSync(path.join(root, 'examples/helpdesk-ts/src/server.ts'), 'utf8'));
  const names = tsTokens.filter((t) => has(t.scopes, 'entity.name.function.tool-name.toolsmith')).map((t) => t.text);
  assert.deepEqual(names, ['query', 'add_note', 'close_ticket']);

  const pyTokens = await tokenize('source.python', fs.readFileSync(path.join(root, 'examples/docs-py/server.py'), 'utf8'));
  const params = pyTokens.filter((t) => has(t.scopes, 'variable.parameter.docstring.toolsmith')).map((t) => t.text);
  assert.deepEqual(params, ['pattern', 'max_results']);
});
