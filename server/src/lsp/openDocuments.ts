import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileAnalysis } from '../service';

/** One analysis of an open document: valid for that version, made under that settings generation. */
export interface DocumentAnalysis {
  uri: string;
  file: string;
  version: number;
  text: string;
  settingsGeneration: number;
  /** The document's import epoch it was made in (OpenDocument.epoch). */
  epoch: number;
  analysis: FileAnalysis;
  /** Why this version was not analysed (over the size or time budget): shown as the document's one diagnostic. */
  skipped?: string;
}

/** Everything the server keeps for one open document. Closing the document drops all of it at once. */
export interface OpenDocument {
  readonly uri: string;
  /** The file name the model uses for it; undefined for a language the server does not analyse. */
  readonly file: string | undefined;
  document: TextDocument;
  /** Opened, and its first content event not handled yet (that one is analysed without the debounce). */
  firstContentPending: boolean;
  /** The last analysis: reused while the version, the settings and the epoch are unchanged; answers requests while a newer one runs. */
  analysis?: DocumentAnalysis;
  /**
   * Bumped when a file it imports changed: the analysis worker's incremental state (what the next keystroke starts
   * from) and the last analysis no longer hold.
   */
  epoch: number;
  /** The analysis job in flight for one version (shared by the scheduled run and the requests asking meanwhile). */
  pending?: { id: number; version: number; settingsGeneration: number; epoch: number; promise: Promise<DocumentAnalysis | undefined> };
  /** The text its dependents were last re-analysed against (a re-analysis caused by a dependency does not propagate). */
  propagatedText?: string;
}

/** The open documents, by URI and by the file name they are analysed under. */
export class OpenDocuments {
  private readonly byUri = new Map<string, OpenDocument>();
  private readonly byFile = new Map<string, OpenDocument>();

  open(document: TextDocument, file: string | undefined): OpenDocument {
    const opened: OpenDocument = { uri: document.uri, file, document, firstContentPending: true, epoch: 0 };
    this.byUri.set(document.uri, opened);
    if (file) this.byFile.set(file, opened);
    return opened;
  }

  get(uri: string): OpenDocument | undefined {
    return this.byUri.get(uri);
  }

  /** The open document analysed under `file` (its text replaces the disk content for every analysis). */
  ofFile(file: string): OpenDocument | undefined {
    return this.byFile.get(file);
  }

  /** Forgets the document; returns what was kept for it. */
  close(uri: string): OpenDocument | undefined {
    const closed = this.byUri.get(uri);
    if (!closed) return undefined;
    this.byUri.delete(uri);
    if (closed.file && this.byFile.get(closed.file) === closed) this.byFile.delete(closed.file);
    return closed;
  }
}
