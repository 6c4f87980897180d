/**
 * Entry of dist/playground.js: everything that talks MCP (the SDK's Client and stdio transport, zod through the SDK's
 * schemas, ajv for the playground's argument checks). The extension's activation never loads it: lazy.ts requires it
 * the first time a session is created (a server is started, from the Servers view, the playground or the
 * preview's live comparison).
 * Only vscode-free modules belong here (the build does not mark `vscode` external, so an import of it fails the build).
 */
export { McpSession, SessionError } from '../servers/session';
export { PlaygroundController } from './controller';
