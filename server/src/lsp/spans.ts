import type { Range } from 'vscode-languageserver';
import type { Span } from '../analysis/model';
import { LineIndex } from '../positions';

/**
 * Turns model spans (offsets) into LSP ranges. Texts come from a snapshot (the analysed version of a document) or,
 * for spans in other files, from the host. Line indexes are cached per text so 80 tools cost one index per file.
 */
export class SpanMapper {
  private readonly indexes = new Map<string, { text: string; index: LineIndex }>();

  constructor(
    private readonly textOf: (file: string) => string | undefined,
    private readonly snapshots: ReadonlyMap<string, string> = new Map(),
  ) {}

  text(file: string): string | undefined {
    return this.snapshots.get(file) ?? this.textOf(file);
  }

  private index(file: string): LineIndex {
    const text = this.text(file) ?? '';
    const cached = this.indexes.get(file);
    if (cached && cached.text === text) return cached.index;
    const index = new LineIndex(text);
    this.indexes.set(file, { text, index });
    return index;
  }

  range(span: Span): Range {
    const index = this.index(span.file);
    return { start: index.position(span.start), end: index.position(span.end) };
  }

  offset(file: string, position: { line: number; character: number }): number {
    return this.index(file).offset(position.line, position.character);
  }
}
