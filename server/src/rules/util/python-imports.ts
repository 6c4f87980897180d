/**
 * The Python imports a quick fix needs: whether a name is imported yet, where new import lines go (after the
 * module header's imports, so every line below can use them), and the one edit that adds the missing ones.
 */
import type { Edit } from '../types';
import { insertAt } from './source';
import { memoByText } from './memo';

/** `[module, name]`: `from module import name`; `[module]`: `import module`. */
export type PythonImport = readonly [module: string, name?: string];

/**
 * True when a top-level import binds `name` from `module` (typing names also from typing_extensions), or binds
 * `module` itself for a plain import. An aliased import (`import x as y`) binds another name.
 */
export function hasPythonImport(text: string, module: string, name?: string): boolean {
  // Each Python fix asks for its imports, and the answer needs a scan of the whole file: once per file text.
  const known = importsAsked(text);
  const key = `${module}\0${name ?? ''}`;
  let found = known.get(key);
  if (found === undefined) known.set(key, (found = name === undefined ? scanModuleImport(text, module) : scanFromImport(text, module, name)));
  return found;
}

const importsAsked = memoByText(() => new Map<string, boolean>());

const escapeDots = (module: string) => module.replace(/\./g, '\\.');

function scanFromImport(text: string, module: string, name: string): boolean {
  const modules = module === 'typing' ? ['typing', 'typing_extensions'] : [module];
  for (const mod of modules) {
    const re = new RegExp(`^from[ \\t]+${escapeDots(mod)}[ \\t]+import[ \\t]+(\\([^)]*\\)|[^\\n]*)`, 'gm');
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const names = m[1].replace(/[()\\]/g, ' ').split(/[,\s]+/);
      for (let i = 0; i < names.length; i++) {
        if (names[i] === name && names[i + 1] !== 'as') return true;
      }
    }
  }
  return false;
}

/** `import module`, `import a, module`, `import module.sub` (which binds `module` too). */
function scanModuleImport(text: string, module: string): boolean {
  const entry = new RegExp(`^${escapeDots(module)}(\\.[\\w.]+)?$`);
  for (const m of text.matchAll(/^import[ \t]+([^\n#]*)/gm)) {
    if (m[1].split(',').some((e) => entry.test(e.trim()))) return true;
  }
  return false;
}

/** Offset after the last top-level import of the module header (or after the module docstring, or 0). */
export function importInsertionOffset(text: string): number {
  return cachedInsertionOffset(text);
}

const cachedInsertionOffset = memoByText((text: string) => computeInsertionOffset(text));

function computeInsertionOffset(text: string): number {
  let offset = 0;
  const lines = text.split('\n');
  let pos = 0;
  let inParen = false;
  let inDocstring: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = pos + line.length + 1;
    if (inDocstring) {
      if (line.includes(inDocstring)) {
        inDocstring = undefined;
        if (offset === 0) offset = Math.min(next, text.length);
      }
    } else if (inParen) {
      if (line.includes(')')) {
        inParen = false;
        offset = Math.min(next, text.length);
      }
    } else if (/^(from|import)[ \t]/.test(line)) {
      if (/\([^)]*$/.test(line)) inParen = true;
      else offset = Math.min(next, text.length);
    } else if (i === 0 || (offset === 0 && /^[ \t]*(#.*)?$/.test(lines.slice(0, i).join('\n')))) {
      const doc = /^[rRuU]?("""|''')/.exec(line);
      if (doc) {
        if (line.indexOf(doc[1], doc[0].length) === -1) inDocstring = doc[1];
        else if (offset === 0) offset = Math.min(next, text.length);
      } else if (!/^[ \t]*(#.*)?$/.test(line)) break;
    } else if (!/^[ \t]*(#.*)?$/.test(line) && !/^if[ \t]+TYPE_CHECKING/.test(line)) {
      break;
    }
    pos = next;
  }
  return offset;
}

/** The edit adding the import lines of `wanted` that `text` lacks (none when nothing is missing). */
export function addPythonImports(file: string, text: string, wanted: PythonImport[]): Edit[] {
  const missing = wanted.filter(([m, n]) => !hasPythonImport(text, m, n));
  if (missing.length === 0) return [];
  const offset = importInsertionOffset(text);
  const needsNewline = offset > 0 && text[offset - 1] !== '\n';
  const lines = missing.map(([m, n]) => (n === undefined ? `import ${m}\n` : `from ${m} import ${n}\n`));
  // One edit for all lines: two insertions at the same offset would look like a conflict to fix pickers.
  return [insertAt(file, offset, (needsNewline ? '\n' : '') + lines.join(''))];
}
