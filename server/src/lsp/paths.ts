import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The model keys spans by absolute path for files on disk. Unsaved documents whose URI has no usable extension
 * (untitled:Untitled-1) are analysed under a synthetic name; this map turns it back into the document URI.
 */
const syntheticFiles = new Map<string, string>();

export function registerDocumentFile(file: string, uri: string): void {
  syntheticFiles.set(file, uri);
}

export function forgetDocumentFile(file: string): void {
  syntheticFiles.delete(file);
}

export function uriToFile(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

export function fileToUri(file: string): string {
  const synthetic = syntheticFiles.get(file);
  if (synthetic) return synthetic;
  // Already a URI (untitled:, vscode-notebook-cell:...), but not a Windows drive path like c:\x.
  if (/^[a-z][a-z0-9+.-]+:/i.test(file) && !/^[a-z]:[\\/]/i.test(file)) return file;
  return pathToFileURL(file).toString();
}
