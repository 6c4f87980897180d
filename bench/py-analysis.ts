/**
 * Python front-end speed: a generated 5,000-line server with 200 tools, full analysis (parse + tools + contracts)
 * against the @lezer/python parse alone on the same text. Medians of interleaved runs; prints the ratio.
 *   node --import tsx bench/py-analysis.ts
 */
import { parser } from '@lezer/python';
import { analyzePython } from '../server/src/analysis/python';

export function generatePythonServer(tools = 200, lines = 5000): string {
  const out: string[] = [
    'from typing import Annotated, Literal, Optional',
    'from enum import Enum',
    'from pydantic import BaseModel, Field',
    'from mcp.server import MCPServer',
    '',
    'mcp = MCPServer("bench")',
    '',
    'class Mode(str, Enum):',
    '    FAST = "fast"',
    '    SLOW = "slow"',
    '',
    'class Item(BaseModel):',
    '    """An item."""',
    '    name: str = Field(max_length=100)',
    '    count: int = 0',
    '',
  ];
  const perTool = Math.floor((lines - out.length) / tools);
  for (let i = 0; i < tools; i++) {
    const block = [
      '@mcp.tool()',
      `async def tool_${i}(query: Annotated[str, Field(description="Search text", max_length=200)], limit: int = 10, mode: Mode = Mode.FAST, item: Optional[Item] = None, kind: Literal["a", "b"] = "a") -> list[str]:`,
      '    """Search things.',
      '',
      '    Use when the user asks for things.',
      '',
      '    Args:',
      '        query: what to look for',
      '        limit: how many',
      '    """',
      '    results = []',
    ];
    while (block.length < perTool - 1) block.push(`    results.append(query.upper() + str(limit) + "${i}-${block.length}")`);
    block.push('    return results');
    out.push(...block);
  }
  while (out.length < lines) out.push('# padding');
  return out.join('\n') + '\n';
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

if (require.main === module) {
  const text = generatePythonServer();
  const host = { readFile: () => undefined, fileExists: () => false };
  const parse: number[] = [];
  const full: number[] = [];
  let tools = 0;
  for (let i = 0; i < 3; i++) {
    parser.parse(text);
    analyzePython('/bench/server.py', text, host);
  }
  for (let i = 0; i < 31; i++) {
    let t0 = performance.now();
    parser.parse(text);
    parse.push(performance.now() - t0);
    t0 = performance.now();
    tools = analyzePython('/bench/server.py', text, host).tools.length;
    full.push(performance.now() - t0);
  }
  const p = median(parse);
  const f = median(full);
  console.log(`python analysis: ${text.split('\n').length - 1} lines, ${tools} tools`);
  console.log(`  parse alone (median)   ${p.toFixed(1)} ms`);
  console.log(`  full analysis (median) ${f.toFixed(1)} ms`);
  console.log(`  ratio full/parse       ${(f / p).toFixed(2)}x`);
}
