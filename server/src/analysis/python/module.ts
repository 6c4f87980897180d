/**
 * One parsed Python module: its imports (local name -> qualified name), top-level classes, functions and
 * assignments, plus the resolution of annotations into PyType facts (following classes into other workspace
 * modules through imports).
 */
import * as path from 'node:path';
import type { SyntaxNode, Tree } from '@lezer/common';
import { parsePython } from './parse';
import type { FileHost, JsonValue, Span } from '../model';
import type { ClassField, ClassInfo, ContainerSpelling, FieldInfo, PyType, ScalarName } from './pytypes';
import { argsOf, child, children, dottedName, kwargsWithNames, literalValue, meaningful, stringValue, type LiteralResult } from './syntax';
import { docstringOf } from './docstring';
import { FRAMEWORK_NAMES, FRAMEWORKS } from '../../../../common/frameworks';

export interface ImportFact {
  local: string;
  qualified: string;
  span: Span;
  /** `from X import Y` module part, `import X` module. */
  module: string;
  level: number;
}

export class PyModule {
  readonly tree: Tree;
  readonly imports = new Map<string, ImportFact>();
  readonly importList: ImportFact[] = [];
  readonly classes = new Map<string, SyntaxNode>();
  readonly functions = new Map<string, SyntaxNode>();
  readonly assigns = new Map<string, SyntaxNode>();
  private classCache = new Map<string, ClassInfo | null>();

  constructor(
    readonly file: string,
    readonly text: string,
    readonly program: PyProgram,
    tree?: Tree,
  ) {
    this.tree = tree ?? parsePython(file, text);
    this.index();
  }

  span(node: { from: number; to: number }): Span {
    return { file: this.file, start: node.from, end: node.to };
  }

  src(node: { from: number; to: number }): string {
    return this.text.slice(node.from, node.to);
  }

  private index(): void {
    const top = this.tree.topNode;
    const visit = (stmts: SyntaxNode[]) => {
      for (const stmt of stmts) {
        if (stmt.name === 'ImportStatement') this.indexImport(stmt);
        else if (stmt.name === 'ClassDefinition') {
          const n = child(stmt, 'VariableName');
          if (n) this.classes.set(this.src(n), stmt);
        } else if (stmt.name === 'FunctionDefinition') {
          const n = child(stmt, 'VariableName');
          if (n) this.functions.set(this.src(n), stmt);
        } else if (stmt.name === 'DecoratedStatement') {
          const def = stmt.lastChild;
          const n = def ? child(def, 'VariableName') : undefined;
          if (def && n) (def.name === 'ClassDefinition' ? this.classes : this.functions).set(this.src(n), def);
        } else if (stmt.name === 'AssignStatement') {
          const parts = children(stmt);
          const ops = parts.filter((p) => p.name === 'AssignOp');
          if (parts[0]?.name === 'VariableName' && ops.length === 1) {
            const value = parts[parts.length - 1];
            if (value && value !== ops[0]) this.assigns.set(this.src(parts[0]), value);
          }
        } else if (stmt.name === 'IfStatement' || stmt.name === 'TryStatement') {
          // `try: from x import y` / `if TYPE_CHECKING:` blocks still declare names.
          for (const body of children(stmt).filter((c) => c.name === 'Body')) visit(children(body));
        }
      }
    };
    visit(children(top));
  }

  private indexImport(stmt: SyntaxNode): void {
    const parts = children(stmt);
    if (parts[0]?.name === 'from') {
      let i = 1;
      let level = 0;
      let mod = '';
      for (; i < parts.length && parts[i].name !== 'import'; i++) {
        const p = parts[i];
        if (p.name === '.') {
          if (!mod) level++;
          else mod += '.';
        } else if (p.name === 'Ellipsis') level += 3;
        else if (p.name === 'VariableName') mod += this.src(p);
      }
      for (i++; i < parts.length; i++) {
        const p = parts[i];
        if (p.name !== 'VariableName') continue;
        const name = this.src(p);
        let local = name;
        let end = p.to;
        if (parts[i + 1]?.name === 'as' && parts[i + 2]?.name === 'VariableName') {
          local = this.src(parts[i + 2]);
          end = parts[i + 2].to;
          i += 2;
        }
        const qualified = (level ? '.'.repeat(level) : '') + (mod ? `${mod}.${name}` : name);
        const fact = { local, qualified, span: { file: this.file, start: p.from, end }, module: mod, level };
        this.imports.set(local, fact);
        this.importList.push(fact);
      }
    } else {
      // import a.b.c [as d], e
      let i = 1;
      while (i < parts.length) {
        let mod = '';
        const start = parts[i].from;
        while (i < parts.length && (parts[i].name === 'VariableName' || parts[i].name === '.')) {
          if (parts[i].name === 'VariableName' && parts[i + 1]?.name === 'as') break;
          mod += parts[i].name === '.' ? '.' : this.src(parts[i]);
          i++;
        }
        if (parts[i]?.name === 'VariableName' && parts[i + 1]?.name === 'as') {
          mod += this.src(parts[i]);
          const alias = parts[i + 2];
          if (alias?.name === 'VariableName') {
            const fact = { local: this.src(alias), qualified: mod, span: { file: this.file, start, end: alias.to }, module: mod, level: 0 };
            this.imports.set(fact.local, fact);
            this.importList.push(fact);
          }
          i += 3;
        } else {
          if (mod) {
            const first = mod.split('.')[0];
            const fact = { local: first, qualified: first, span: { file: this.file, start, end: parts[i - 1]?.to ?? start }, module: mod, level: 0 };
            if (!this.imports.has(first)) this.imports.set(first, fact);
            this.importList.push({ ...fact, qualified: mod });
          }
          i++;
        }
        while (i < parts.length && parts[i].name === ',') i++;
      }
    }
  }

  /** Qualified name of a dotted expression through imports (`np.array` -> `numpy.array`); locals stay as written. */
  qualify(node: SyntaxNode): string | undefined {
    const d = dottedName(node, this.text);
    if (!d) return undefined;
    return this.qualifyName(d);
  }

  qualifyName(d: string): string {
    // Hot (every call in every handler): no split/join when the head is not an import.
    const dot = d.indexOf('.');
    const imp = this.imports.get(dot < 0 ? d : d.slice(0, dot));
    if (!imp) return d;
    return dot < 0 ? imp.qualified : imp.qualified + d.slice(dot);
  }

  // ---------------------------------------------------------------------------------------------- types

  /** Resolves an annotation expression into a PyType. Never throws; unknown shapes become `unknown`. */
  resolveType(node: SyntaxNode, depth = 0): PyType {
    const span = this.span(node);
    if (depth > 30) return { kind: 'unknown', reason: 'annotation nested too deeply', span };
    switch (node.name) {
      case 'None':
        return { kind: 'none', span };
      case 'String':
      case 'ContinuedString': {
        // A forward reference "Model": parse the string as an expression.
        const s = stringValue(node, this.text);
        if (s && /^[A-Za-z_][\w.]*$/.test(s)) {
          const cls = this.classByName(s, span);
          if (cls) return { kind: 'class', cls, span };
          const q = this.qualifyName(s);
          const t = this.namedType(q, span);
          if (t) return t;
        }
        return { kind: 'unknown', reason: `string annotation ${this.src(node)} is not resolved`, span };
      }
      case 'ParenthesizedExpression': {
        const inner = meaningful(node);
        if (inner.length === 1) return this.resolveType(inner[0], depth + 1);
        break;
      }
      case 'BinaryExpression': {
        const parts = children(node);
        if (parts.length === 3 && this.src(parts[1]) === '|') {
          const l = this.resolveType(parts[0], depth + 1);
          const r = this.resolveType(parts[2], depth + 1);
          return { kind: 'union', members: [...(l.kind === 'union' ? l.members : [l]), ...(r.kind === 'union' ? r.members : [r])], span };
        }
        break;
      }
      case 'VariableName':
      case 'MemberExpression': {
        const parts = children(node);
        if (node.name === 'MemberExpression' && parts[1]?.name === '[') return this.resolveSubscript(node, parts, depth);
        const d = dottedName(node, this.text);
        if (!d) break;
        const local = d.split('.')[0];
        if (!this.imports.has(local)) {
          const cls = this.classByName(d, span);
          if (cls) return { kind: 'class', cls, span };
          // A module-level alias: `Query = Annotated[str, Field(...)]`.
          const alias = !d.includes('.') ? this.assigns.get(d) : undefined;
          if (alias && depth < 10) {
            const t = this.resolveType(alias, depth + 1);
            return t.kind === 'unknown' ? t : { ...t, span };
          }
        }
        const q = this.qualifyName(d);
        const t = this.namedType(q, span);
        if (t) return t;
        const cls = this.importedClass(q, span);
        if (cls) return { kind: 'class', cls, span };
        return { kind: 'unknown', reason: `type ${d} is not resolved (not a builtin, typing construct or workspace class)`, span };
      }
    }
    return { kind: 'unknown', reason: `annotation ${this.src(node).slice(0, 60)} is not supported`, span };
  }

  private namedType(q: string, span: Span): PyType | undefined {
    const scalar = SCALARS[q];
    if (scalar) return { kind: 'scalar', name: scalar, span };
    const last = q.split('.').pop()!;
    const typingLike = /^(typing|typing_extensions|collections\.abc|collections)\./.test(q);
    if (q === 'typing.Any' || q === 'typing_extensions.Any') return { kind: 'any', span };
    if (q === 'object') return { kind: 'any', object: true, span };
    const spelling = containerSpelling(q);
    if (q === 'list' || (typingLike && last === 'List')) return { kind: 'list', spelling, span };
    if (q === 'set' || (typingLike && (last === 'Set' || last === 'MutableSet'))) return { kind: 'set', spelling, span };
    if (q === 'frozenset' || (typingLike && last === 'FrozenSet')) return { kind: 'frozenset', spelling, span };
    if (q === 'tuple' || (typingLike && last === 'Tuple')) return { kind: 'tuple', items: [], variadic: true, spelling, span };
    if (q === 'dict' || (typingLike && (last === 'Dict' || last === 'Mapping' || last === 'MutableMapping'))) return { kind: 'dict', spelling, span };
    if (typingLike && (last === 'Sequence' || last === 'MutableSequence')) return { kind: 'sequence', spelling, span };
    if (CONTEXT_TYPES.has(q)) return { kind: 'context', span };
    if (CONTENT_TYPES.has(q)) return { kind: 'content', name: last, span };
    return undefined;
  }

  private resolveSubscript(node: SyntaxNode, parts: SyntaxNode[], depth: number): PyType {
    const span = this.span(node);
    const base = parts[0];
    const d = dottedName(base, this.text);
    const args = parts.slice(2).filter((p) => p.name !== ',' && p.name !== ']' && !p.type.isError);
    if (!d) return { kind: 'unknown', reason: `annotation ${this.src(node).slice(0, 60)} is not supported`, span };
    const q = this.qualifyName(d);
    const last = q.split('.').pop()!;
    const typingLike = /^(typing|typing_extensions|collections\.abc|collections)\./.test(q) || !q.includes('.');
    const isTyping = (n: string) => typingLike && last === n;
    const t = (n: SyntaxNode) => this.resolveType(n, depth + 1);
    // Literal args are values, the others are types.
    if (isTyping('Literal')) {
      const values: JsonValue[] = [];
      for (const a of this.flattenTupleArgs(args)) {
        const v = literalValue(a, this.text, (n) => this.enumMemberValue(n));
        if (!v.ok) return { kind: 'unknown', reason: `Literal value ${this.src(a)}: ${v.reason}`, span };
        values.push(v.value);
      }
      return { kind: 'literal', values, span };
    }
    const targs = this.flattenTupleArgs(args);
    if (isTyping('Optional') && targs.length === 1) return { kind: 'union', members: [t(targs[0]), { kind: 'none', span }], span };
    if (isTyping('Union')) {
      const members: PyType[] = [];
      for (const a of targs) {
        const r = t(a);
        if (r.kind === 'union') members.push(...r.members);
        else members.push(r);
      }
      return { kind: 'union', members, span };
    }
    if (isTyping('Annotated') && targs.length >= 1) {
      const baseType = t(targs[0]);
      const fields: FieldInfo[] = [];
      const descriptions: string[] = [];
      for (const meta of targs.slice(1)) {
        if (meta.name === 'CallExpression') {
          const callee = meta.firstChild && this.qualify(meta.firstChild);
          if (callee === 'pydantic.Field' || callee === 'pydantic.fields.Field' || callee === 'Field') {
            fields.push(this.fieldInfo(meta));
            continue;
          }
        }
        const s = stringValue(meta, this.text);
        if (s !== undefined) {
          descriptions.push(s);
          continue;
        }
        return { kind: 'unknown', reason: `Annotated metadata ${this.src(meta).slice(0, 40)} is not supported`, span };
      }
      return { kind: 'annotated', base: baseType, fields, descriptions, span };
    }
    if ((isTyping('Required') || isTyping('NotRequired') || isTyping('ReadOnly')) && targs.length === 1) return t(targs[0]);
    const spelling = containerSpelling(q);
    if (q === 'list' || isTyping('List')) return { kind: 'list', item: targs[0] ? t(targs[0]) : undefined, spelling, span };
    if (q === 'set' || isTyping('Set') || isTyping('MutableSet')) return { kind: 'set', item: targs[0] ? t(targs[0]) : undefined, spelling, span };
    if (q === 'frozenset' || isTyping('FrozenSet')) return { kind: 'frozenset', item: targs[0] ? t(targs[0]) : undefined, spelling, span };
    if (isTyping('Sequence') || isTyping('MutableSequence')) return { kind: 'sequence', item: targs[0] ? t(targs[0]) : undefined, spelling, span };
    if (q === 'dict' || isTyping('Dict') || isTyping('Mapping') || isTyping('MutableMapping'))
      return { kind: 'dict', key: targs[0] ? t(targs[0]) : undefined, value: targs[1] ? t(targs[1]) : undefined, spelling, span };
    if (q === 'tuple' || isTyping('Tuple')) {
      if (targs.length === 2 && targs[1].name === 'Ellipsis') return { kind: 'tuple', items: [t(targs[0])], variadic: true, spelling, span };
      if (targs.length === 1 && targs[0].name === 'TupleExpression' && meaningful(targs[0]).length === 0) return { kind: 'tuple', items: [], variadic: false, spelling, span };
      return { kind: 'tuple', items: targs.map(t), variadic: false, spelling, span };
    }
    if (CONTEXT_TYPES.has(q) || CONTEXT_TYPES.has(d)) return { kind: 'context', span };
    return { kind: 'unknown', reason: `generic ${d}[...] is not supported`, span };
  }

  /** `X[a, b]` parses the arguments either as siblings or as one TupleExpression. */
  private flattenTupleArgs(args: SyntaxNode[]): SyntaxNode[] {
    if (args.length === 1 && args[0].name === 'TupleExpression') return meaningful(args[0]);
    return args;
  }

  /** Enum member reference `Color.RED` -> its value (for defaults and Literal). */
  enumMemberValue(node: SyntaxNode): LiteralResult | undefined {
    if (node.name !== 'MemberExpression') {
      if (node.name === 'VariableName') {
        // A module-level constant.
        const v = this.assigns.get(this.src(node));
        if (v && v.name !== 'CallExpression') return literalValue(v, this.text, (n) => (n === node ? undefined : this.enumMemberValue(n)));
      }
      return undefined;
    }
    const d = dottedName(node, this.text);
    if (!d) return undefined;
    // `Color.RED.value`: the member's value, as `Color.RED` itself is read (str/int enums publish their value).
    const inner = node.firstChild;
    if (d.endsWith('.value') && inner?.name === 'MemberExpression') {
      const v = this.enumMemberValue(inner);
      if (v) return v;
    }
    const dot = d.lastIndexOf('.');
    const clsName = d.slice(0, dot);
    const member = d.slice(dot + 1);
    const cls = this.classByName(clsName, this.span(node)) ?? this.importedClass(this.qualifyName(clsName), this.span(node));
    if (!cls || cls.kind !== 'enum') return undefined;
    const owner = this.program.moduleOfClass(cls);
    const def = owner?.classes.get(cls.name);
    if (!owner || !def) return undefined;
    const body = child(def, 'Body');
    for (const stmt of body ? children(body) : []) {
      if (stmt.name !== 'AssignStatement') continue;
      const p = children(stmt);
      if (p[0]?.name === 'VariableName' && owner.src(p[0]) === member && p[1]?.name === 'AssignOp' && p[2]) return literalValue(p[2], owner.text);
    }
    return { ok: false, reason: `${d} is not a member of ${cls.name}` };
  }

  /** A class defined at the top of this module (or a dotted name like `models.User` through `import models`). */
  classByName(name: string, _span: Span): ClassInfo | undefined {
    if (!name.includes('.')) {
      const def = this.classes.get(name);
      if (def) return this.classInfo(name, def) ?? undefined;
      const imp = this.imports.get(name);
      if (imp) return this.importedClass(imp.qualified, _span);
      return undefined;
    }
    return this.importedClass(this.qualifyName(name), _span);
  }

  /** `pkg.models.User` (qualified through imports) -> the workspace class, if the module is in the workspace. */
  importedClass(qualified: string, _span: Span): ClassInfo | undefined {
    const dot = qualified.lastIndexOf('.');
    if (dot < 0) return undefined;
    const modName = qualified.slice(0, dot);
    const clsName = qualified.slice(dot + 1);
    const mod = this.program.resolveModule(modName, this.file);
    if (!mod || mod === this) return mod === this ? this.classByName(clsName, _span) : undefined;
    return mod.classByName(clsName, _span);
  }

  classInfo(name: string, def: SyntaxNode): ClassInfo | null {
    const cached = this.classCache.get(name);
    if (cached !== undefined) return cached;
    this.classCache.set(name, null); // guards recursion while building
    const info = this.buildClass(name, def);
    if (info) this.classCache.set(name, info);
    else this.classCache.delete(name);
    return info;
  }

  private buildClass(name: string, def: SyntaxNode): ClassInfo | null {
    const bases = argsOf(child(def, 'ArgList'));
    const body = child(def, 'Body');
    const decorators = def.parent?.name === 'DecoratedStatement' ? children(def.parent).filter((c) => c.name === 'Decorator') : [];
    const isDataclass = decorators.some((d) => {
      const q = this.decoratorName(d);
      return q === 'dataclasses.dataclass' || q === 'pydantic.dataclasses.dataclass';
    });
    let kind: ClassInfo['kind'] | undefined;
    let stdlibTypedDict = false;
    let total = true;
    let extra: ClassInfo['extra'];
    const inherited: ClassField[] = [];
    for (const b of bases) {
      if (b.name !== undefined && b.nameNode) {
        const kw = this.src(b.nameNode);
        if (kw === 'total') total = this.src(b.value) !== 'False';
        continue;
      }
      const q = this.qualify(b.value);
      if (!q) continue;
      if (q === 'pydantic.BaseModel' || q === 'pydantic.main.BaseModel') kind = 'model';
      else if (/^enum\.(Enum|IntEnum|StrEnum|Flag|IntFlag)$/.test(q)) kind = 'enum';
      else if (q === 'typing.TypedDict' || q === 'typing_extensions.TypedDict') {
        kind = 'typeddict';
        stdlibTypedDict = q === 'typing.TypedDict';
      } else {
        const parentCls = this.classByName(dottedName(b.value, this.text) ?? '', this.span(b.value));
        if (parentCls && parentCls.kind !== 'enum') {
          kind = kind ?? parentCls.kind;
          inherited.push(...parentCls.fields);
          extra = extra ?? parentCls.extra;
          stdlibTypedDict = stdlibTypedDict || !!parentCls.stdlibTypedDict;
        } else if (parentCls?.kind === 'enum') kind = 'enum';
      }
    }
    if (!kind && isDataclass) kind = 'dataclass';
    if (!kind) return null;
    const doc = docstringOf(body, this.text)?.value;
    const info: ClassInfo = {
      key: `${this.file}#${name}`,
      name,
      kind,
      doc,
      fields: [],
      span: this.span(def),
      unresolved: [],
      total,
      extra,
      stdlibTypedDict,
    };
    this.classCache.set(name, info); // allow self references while fields resolve
    const own: ClassField[] = [];
    const enumValues: JsonValue[] = [];
    for (const stmt of body ? children(body) : []) {
      if (stmt.name !== 'AssignStatement') continue;
      const p = children(stmt);
      const target = p[0];
      if (target?.name !== 'VariableName') continue;
      const fname = this.src(target);
      const typeDef = child(stmt, 'TypeDef');
      const opIdx = p.findIndex((x) => x.name === 'AssignOp');
      const value = opIdx >= 0 ? p[opIdx + 1] : undefined;
      if (kind === 'enum') {
        if (fname.startsWith('_') || !value) continue;
        const v = literalValue(value, this.text);
        if (v.ok) enumValues.push(v.value);
        else info.unresolved.push({ part: `enum ${name}.${fname}`, reason: v.reason, span: this.span(value) });
        continue;
      }
      if (fname === 'model_config' && value?.name === 'CallExpression') {
        for (const a of kwargsWithNames(argsOf(child(value, 'ArgList')), this.text))
          if (a.name === 'extra') {
            const s = stringValue(a.value, this.text);
            if (s === 'forbid' || s === 'allow' || s === 'ignore') extra = s;
          }
        info.extra = extra;
        continue;
      }
      if (!typeDef || fname.startsWith('_')) continue;
      const annNode = meaningful(typeDef)[0];
      if (!annNode) continue;
      const annQ = annNode.name === 'MemberExpression' ? dottedName(children(annNode)[0], this.text) : dottedName(annNode, this.text);
      if (annQ && /(^|\.)ClassVar$/.test(this.qualifyName(annQ))) continue;
      const ftype = this.resolveType(annNode);
      let requiredOverride: boolean | undefined;
      if (annNode.name === 'MemberExpression') {
        const head = dottedName(children(annNode)[0], this.text);
        const hq = head ? this.qualifyName(head) : '';
        if (/(^|\.)NotRequired$/.test(hq)) requiredOverride = false;
        else if (/(^|\.)Required$/.test(hq)) requiredOverride = true;
      }
      const f: ClassField = { name: fname, type: ftype, span: this.span(stmt), requiredOverride };
      if (value) {
        const isField = value.name === 'CallExpression' && value.firstChild && /(^|\.)Field$/.test(this.qualify(value.firstChild) ?? '');
        const isDcField = value.name === 'CallExpression' && value.firstChild && this.qualify(value.firstChild) === 'dataclasses.field';
        if (isField) {
          f.field = this.fieldInfo(value);
          if (f.field.default) f.default = { value: f.field.default.value, python: f.field.default.python };
          else if (f.field.defaultFactory) f.default = 'factory';
          for (const u of f.field.unresolved) info.unresolved.push({ ...u, part: `${name}.${fname}: ${u.part}` });
        } else if (isDcField) {
          const kw = kwargsWithNames(argsOf(child(value, 'ArgList')), this.text);
          const d = kw.find((a) => a.name === 'default');
          if (kw.some((a) => a.name === 'default_factory')) f.default = 'factory';
          else if (d) {
            const v = literalValue(d.value, this.text, (n) => this.enumMemberValue(n));
            if (v.ok) f.default = { value: v.value, python: v.python };
            else info.unresolved.push({ part: `${name}.${fname} default`, reason: v.reason, span: this.span(d.value) });
          }
        } else {
          const v = literalValue(value, this.text, (n) => this.enumMemberValue(n));
          if (v.ok) f.default = { value: v.value, python: v.python };
          else info.unresolved.push({ part: `${name}.${fname} default`, reason: v.reason, span: this.span(value) });
        }
      }
      own.push(f);
    }
    if (kind === 'enum') info.enumValues = enumValues;
    // Redefined fields keep the parent's position (dict semantics).
    const fields = [...inherited];
    for (const f of own) {
      const i = fields.findIndex((x) => x.name === f.name);
      if (i >= 0) fields[i] = f;
      else fields.push(f);
    }
    info.fields = fields;
    return info;
  }

  decoratorName(dec: SyntaxNode): string | undefined {
    const parts = children(dec).filter((c) => c.name !== 'At');
    if (!parts.length) return undefined;
    // @a.b.c or @a.b.c(...): rebuild the dotted name from VariableName / '.' tokens.
    let name = '';
    for (const p of parts) {
      if (p.name === 'VariableName') name += this.src(p);
      else if (p.name === '.') name += '.';
      else if (p.name === 'ArgList') break;
      else return undefined;
    }
    return this.qualifyName(name);
  }

  /** `Field(...)` call -> FieldInfo (default, constraints, description, title, examples). */
  fieldInfo(call: SyntaxNode): FieldInfo {
    const info: FieldInfo = { span: this.span(call), constraints: [], unresolved: [] };
    const args = kwargsWithNames(argsOf(child(call, 'ArgList')), this.text);
    const resolve = (n: SyntaxNode) => this.enumMemberValue(n);
    args.forEach((a, i) => {
      if (a.spread) {
        info.unresolved.push({ part: 'Field', reason: 'Field(*args/**kwargs) is not resolved', span: this.span(a.value) });
        return;
      }
      const key = a.name ?? (i === 0 ? 'default' : '');
      const span = this.span(a.value);
      if (key === 'default') {
        if (a.value.name === 'Ellipsis') return;
        const v = literalValue(a.value, this.text, resolve);
        if (v.ok) info.default = { value: v.value, span, python: v.python };
        else info.unresolved.push({ part: 'default', reason: v.reason, span });
        return;
      }
      if (key === 'default_factory') {
        info.defaultFactory = span;
        return;
      }
      const v = literalValue(a.value, this.text, resolve);
      if (!v.ok) {
        info.unresolved.push({ part: key || 'Field', reason: v.reason, span });
        return;
      }
      if (key === 'description' && typeof v.value === 'string') info.description = { value: v.value, span };
      else if (key === 'title' && typeof v.value === 'string') info.title = { value: v.value, span };
      else if (key === 'examples') info.examples = { value: v.value, span };
      else if (key === 'alias' && typeof v.value === 'string') info.alias = v.value;
      else if (['ge', 'le', 'gt', 'lt', 'multiple_of', 'min_length', 'max_length', 'pattern'].includes(key)) info.constraints.push({ key, value: v.value, span });
      else if (key === 'strict' || key === 'frozen' || key === 'repr' || key === 'exclude' || key === 'init' || key === 'kw_only' || key === 'validate_default') return;
      else info.unresolved.push({ part: key || 'Field', reason: `Field(${key}=...) is not modelled by the analyser`, span });
    });
    return info;
  }
}

/** The spelling of a qualified container name (`dict`, `collections.abc.Mapping`, `typing.Dict`; see ContainerSpelling). */
function containerSpelling(q: string): ContainerSpelling {
  if (!q.includes('.')) return ['dict', 'list', 'set', 'frozenset', 'tuple'].includes(q) ? 'builtin' : 'typing';
  return q.startsWith('collections.') ? 'abc' : 'typing';
}

const SCALARS: Record<string, ScalarName> = {
  int: 'int',
  float: 'float',
  str: 'str',
  bool: 'bool',
  bytes: 'bytes',
  'datetime.datetime': 'datetime',
  'datetime.date': 'date',
  'datetime.time': 'time',
  'datetime.timedelta': 'timedelta',
  'uuid.UUID': 'uuid',
  'pathlib.Path': 'path',
  'pathlib.PurePath': 'path',
  'decimal.Decimal': 'decimal',
  'pydantic.EmailStr': 'email',
  // pydantic's URL types: `format: uri` with `minLength: 1`; the HTTP and WebSocket ones also cap the length at 2083.
  ...Object.fromEntries(
    ['AnyUrl', 'AnyHttpUrl', 'FileUrl', 'FtpUrl', 'AnyWebsocketUrl', 'HttpUrl', 'WebsocketUrl'].flatMap((n) => {
      const kind: ScalarName = n === 'HttpUrl' || n === 'WebsocketUrl' ? 'http-url' : 'url';
      return [
        [`pydantic.${n}`, kind],
        [`pydantic.networks.${n}`, kind],
      ];
    }),
  ),
};

const PYTHON_FRAMEWORKS = FRAMEWORK_NAMES.filter((f) => FRAMEWORKS[f].language === 'python').map((f) => FRAMEWORKS[f]);

/** Parameters the frameworks inject (and hide from inputSchema). */
const CONTEXT_TYPES = new Set(PYTHON_FRAMEWORKS.flatMap((p) => p.contextClasses));

/** The protocol's content classes (mcp.types, shared by every framework), then each framework's own helpers. */
const CONTENT_TYPES = new Set([
  'mcp.types.TextContent',
  'mcp.types.ImageContent',
  'mcp.types.AudioContent',
  'mcp.types.EmbeddedResource',
  'mcp.types.ResourceLink',
  'mcp_types.TextContent',
  'mcp_types.ImageContent',
  'mcp_types.AudioContent',
  'mcp_types.EmbeddedResource',
  'mcp_types.ResourceLink',
  'mcp.types.CallToolResult',
  'mcp_types.CallToolResult',
  ...PYTHON_FRAMEWORKS.flatMap((p) => p.contentClasses),
]);

/** The set of modules read for one analysis (the file itself and workspace modules it imports). */
export class PyProgram {
  private modules = new Map<string, PyModule | null>();
  readonly dependencies = new Set<string>();

  constructor(
    readonly host: FileHost,
    readonly rootFile: string,
  ) {}

  add(mod: PyModule): void {
    this.modules.set(mod.file, mod);
  }

  moduleOfClass(cls: ClassInfo): PyModule | undefined {
    const file = cls.key.slice(0, cls.key.lastIndexOf('#'));
    return this.modules.get(file) ?? undefined;
  }

  /** Finds a workspace module by dotted name (relative `.models` or absolute `pkg.models`). */
  resolveModule(name: string, fromFile: string): PyModule | undefined {
    const m = /^(\.*)(.*)$/.exec(name)!;
    const level = m[1].length;
    const rel = m[2] ? m[2].split('.') : [];
    const candidates: string[] = [];
    if (level > 0) {
      let dir = path.dirname(fromFile);
      for (let i = 1; i < level; i++) dir = path.dirname(dir);
      candidates.push(path.join(dir, ...rel) + '.py', path.join(dir, ...rel, '__init__.py'));
    } else {
      if (!rel.length || STDLIB_OR_THIRD_PARTY.has(rel[0])) return undefined;
      let dir = path.dirname(fromFile);
      for (let i = 0; i < 4; i++) {
        candidates.push(path.join(dir, ...rel) + '.py', path.join(dir, ...rel, '__init__.py'), path.join(dir, 'src', ...rel) + '.py');
        const up = path.dirname(dir);
        if (up === dir) break;
        dir = up;
      }
    }
    for (const c of candidates) {
      if (this.modules.has(c)) return this.modules.get(c) ?? undefined;
      if (!this.host.fileExists(c)) continue;
      const text = this.host.readFile(c);
      if (text === undefined) continue;
      const mod = new PyModule(c, text, this);
      this.modules.set(c, mod);
      if (c !== this.rootFile) this.dependencies.add(c);
      return mod;
    }
    return undefined;
  }
}

/** Top-level packages that are never workspace modules: the standard library, common dependencies, the frameworks'. */
const STDLIB_OR_THIRD_PARTY = new Set([
  ...PYTHON_FRAMEWORKS.flatMap((p) => p.serverClasses.map((q) => q.split('.')[0])),
  'typing',
  'typing_extensions',
  'pydantic',
  'mcp_types',
  'datetime',
  'uuid',
  'pathlib',
  'enum',
  'os',
  'sys',
  'json',
  'collections',
  'dataclasses',
  'decimal',
  're',
  'asyncio',
  'subprocess',
  'requests',
  'httpx',
  'time',
  'logging',
  'traceback',
  'abc',
  'functools',
  'itertools',
  'math',
  'random',
  'shutil',
  'tempfile',
  'urllib',
  'io',
  'sqlite3',
  'annotated_types',
  'starlette',
]);

export type { Tree };
