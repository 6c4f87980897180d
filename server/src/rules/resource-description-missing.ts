import type { Rule } from './types';
import { finding } from './util/finding';

/** What ext-apps' registerAppResource gives an app's HTML view (`RESOURCE_MIME_TYPE`, every release 0.2.0-2.0.4). */
const MCP_APP_VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

export const resourceDescriptionMissing: Rule = {
  id: 'resource-description-missing',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'A resource or resource template (registerResource / resource(), Python @server.resource) with no description in resources/list.',
  checkResource(resource) {
    const d = resource.description;
    if (d && (d.value === undefined || d.value.trim() !== '')) return [];
    // A config the analysis could not read (spread from a parameter, built at run time) may well hold one.
    // So may an entry not read, or a list a low-level handler builds at run time (`resources`, `resourceTemplates`).
    if (resource.unresolved.some((u) => ['config', 'metadata', 'description', 'resource', 'contract', 'resources', 'resourceTemplates'].includes(u.part))) return [];
    // An MCP App's view (ext-apps' RESOURCE_MIME_TYPE): the host loads it by the URI its tool's `_meta.ui` names, to
    // render it; nobody picks it from the list as context.
    if (resource.contract.mimeType === MCP_APP_VIEW_MIME_TYPE) return [];
    const what = resource.kind === 'template' ? 'Resource template' : 'Resource';
    const label = resource.name.value !== undefined ? `"${resource.name.value}"` : resource.uri.value !== undefined ? resource.uri.value : 'this resource';
    const list = resource.kind === 'template' ? 'resources/templates/list' : 'resources/list';
    const how =
      resource.registration.kind === 'handler'
        ? `Add \`description\` to its entry in the ${list} handler: what it holds and when it is worth reading.`
        : resource.language === 'python'
          ? 'Give the function a docstring (or pass `description=` to the decorator): what it holds and when it is worth reading.'
          : resource.registration.kind === 'registerResource' || resource.registration.configSpan
            ? 'Add `description` to its metadata: what it holds and when it is worth reading.'
            : 'Pass a metadata object with a `description` before the callback (resource(name, uri, { description }, cb)), or use registerResource.';
    // Python's official SDK publishes `description or __doc__ or ""`: an empty description there is no description written.
    const empty = d && resource.language !== 'python';
    const message =
      `${what} ${label} has ${empty ? 'an empty' : 'no'} description in ${list}: clients offer resources for the user or the model to attach as ` +
      `context, and the description is what tells them what it holds and when to read it (the spec calls it a hint to the model); with only a name and ` +
      `a URI they guess. ${how}`;
    // No fix: the words have to come from the author.
    return [finding(null, d?.span ?? resource.name.span, message)];
  },
};
