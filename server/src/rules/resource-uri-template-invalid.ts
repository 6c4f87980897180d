import type { Rule } from './types';
import { finding } from './util/finding';

/**
 * `new ResourceTemplate(template, ...)` parses the template with the SDK's UriTemplate (both lines), which throws on
 * what it cannot parse (an expression left open, a template over its size limits): the server does not start. The
 * front-end runs the SDK's own parser and records its message.
 */
export const resourceUriTemplateInvalid: Rule = {
  id: 'resource-uri-template-invalid',
  defaultSeverity: 'error',
  languages: ['typescript'],
  summary: 'A ResourceTemplate URI template the SDK cannot parse (it throws at start-up).',
  checkResource(resource) {
    return (resource.throws ?? [])
      .filter((t) => t.part === 'uriTemplate')
      .map((t) =>
        finding(
          null,
          t.span,
          `The SDK cannot parse this URI template and throws when the server starts: "${t.message}". ` + 'Each variable is one expression in braces, e.g. `users://{userId}/posts{?limit}` (RFC 6570).',
        ),
      );
  },
};
