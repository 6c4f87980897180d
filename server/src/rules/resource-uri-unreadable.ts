import type { Rule } from './types';
import { finding } from './util/finding';
import { replaceLiteralValue } from './util/string-literals';
import type { ResourceDefinition } from '../analysis/model';
import { FRAMEWORKS } from '../../../common/frameworks';

/**
 * Python: mcp 1.x and FastMCP pass a static URI through pydantic's AnyUrl when the module is imported. It lists and
 * reads the normalized form alike (`HTTP://Example.com/x y` is listed and read as `http://example.com/x%20y`), so only a
 * URI AnyUrl refuses is a problem there — and a worse one: ValidationError, the server does not start. mcp 2.x keeps
 * the string as written and reads it by exact match: nothing to report.
 */
function pythonUri(resource: ResourceDefinition) {
  const refused = (resource.throws ?? []).find((t) => t.part === 'uri');
  if (!refused) return [];
  const label = resource.name.value !== undefined ? `Resource "${resource.name.value}"` : 'This resource';
  return [
    finding(
      null,
      refused.span,
      `${label} can never be read: ${FRAMEWORKS[resource.framework].name} validates a static resource URI with pydantic's AnyUrl when the module is imported, and \`${resource.uri.value}\` is not an absolute URL (a scheme such as \`file://\` or \`docs://\` is missing, or it holds characters a URL cannot), so registering it raises ValidationError and the server does not start. Write it as a URL with a scheme, e.g. \`docs://${(resource.uri.value ?? 'readme').replace(/^[/]+/, '')}\`.`,
    ),
  ];
}

/** `{name}` in a URI: a URI template variable (the SDK's UriTemplate.isTemplate test). */
const TEMPLATE_VARIABLE = /\{[^}\s]+\}/;

/**
 * A static resource whose URI resources/read can never match. Both SDK lines (1.x `resources/read` handler, v2 the
 * same) look a static resource up under `new URL(requestedUri).toString()`: a URI that `new URL()` rejects is refused
 * ("invalid"), and one that it normalizes differently (case, spaces, braces) is never found. Clients read with the
 * URI resources/list gave them, so the resource is listed and unreadable.
 */
export const resourceUriUnreadable: Rule = {
  id: 'resource-uri-unreadable',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'A static resource URI that resources/read cannot match: not a valid URL, or not in its normalized form (Python: one pydantic refuses, so the server does not start).',
  checkResource(resource, ctx) {
    if (resource.language === 'python') return pythonUri(resource);
    const uri = resource.uri.value;
    // A low-level Server's resources/read is the author's own handler, which matches URIs its own way.
    if (resource.kind !== 'resource' || uri === undefined || resource.registration.kind === 'handler') return [];
    let normalized: string | undefined;
    try {
      normalized = new URL(uri).toString();
    } catch {
      normalized = undefined;
    }
    if (normalized === uri) return [];
    const label = resource.name.value !== undefined ? `Resource "${resource.name.value}"` : 'This resource';
    const variable = TEMPLATE_VARIABLE.exec(uri)?.[0];
    let why: string;
    if (normalized === undefined) {
      const scheme = /^([^:/?#]+):/.exec(uri)?.[1];
      why =
        scheme !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)
          ? `\`${uri}\` is not a URL: the scheme \`${scheme}\` must start with a letter and hold only letters, digits, +, - and .`
          : `\`${uri}\` is not an absolute URL (a scheme such as \`file://\` or \`docs://\` is missing, or it holds characters a URL cannot)`;
      why += ': resources/read parses the requested URI with `new URL()`, which throws, so a client reading it gets "Resource URI ... is invalid"';
    } else {
      why = `resources/read looks static resources up under \`new URL(uri).toString()\`, which turns \`${uri}\` into \`${normalized}\`, so a client reading it gets "Resource ... not found"`;
    }
    const instead =
      variable !== undefined
        ? ` It holds the template variable \`${variable}\`: a static URI is matched as a whole string, never filled in. Register it as a template, \`new ResourceTemplate(...)\` with \`{ list: undefined }\`, and the read callback receives the variables` +
          (normalized === undefined ? ' (the URIs a template reads go through `new URL()` too: fix the URL first).' : '.')
        : normalized !== undefined
          ? ` Register it as \`${normalized}\`.`
          : '';
    const message = `${label} is listed in resources/list but can never be read: ${why}.${instead}`;
    const fixes = [];
    if (normalized !== undefined && variable === undefined) {
      const edit = replaceLiteralValue(ctx, resource.uri.span, normalized);
      if (edit) fixes.push({ title: `Register it as ${normalized}`, edits: [edit], safe: false });
    }
    return [finding(null, resource.uri.span, message, fixes)];
  },
};
