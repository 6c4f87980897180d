/**
 * Entry of dist/playground.js: everything that talks MCP (the SDK's Client and stdio transport, zod through the SDK's
 * schemas, ajv for the playground's argument checks). The extension's activation never loads it: lazy.ts requires it
 * the first time a server is started, a playground opens or the preview compares with a live server.
 * Only vscode-free modules belong here (the build does not mark `vscode` external, so an import of it fails the build).
 */
export { McpSession, SessionError } from '../servers/session';
export { PlaygroundController } from './controller';
export { startLiveSession } from '../preview/liveClient';
