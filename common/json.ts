/**
 * JSON values and the source languages, shared by the server's model (server/src/analysis/model.ts re-exports
 * them), the client and the webviews. common/ imports nothing from server/ or client/.
 */

export type Language = 'typescript' | 'python';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonSchema = { [key: string]: JsonValue };
