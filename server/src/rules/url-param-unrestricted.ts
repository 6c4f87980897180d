import type { ParameterDefinition, ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';
import { snakeCase } from './util/names';
import { enumValues, inputSchemaOf, keywordValue } from './util/json-schema';

const URL_NAME = /(^|_)(url|urls|uri|href|link|endpoint|webhook)$/;

/** Calls that open a URL and accept `file:` too: Python's urllib, a browser page (puppeteer / playwright). */
const READS_FILE_URLS = /^(urllib\.request\.(urlopen|Request)|urllib2\.urlopen|urlopen)$|(^|\.)(goto|newPage\(\)\.goto)$/;

/** HTTP client calls (Python requests / httpx / aiohttp / urllib3, TS fetch / axios / got / undici / ky). */
const HTTP_CALL =
  /^(requests|httpx|aiohttp|urllib3|niquests)(\.[\w]+)*\.(get|post|put|patch|delete|head|request|stream|urlopen)$|^(fetch|node-fetch|cross-fetch|undici\.(fetch|request)|axios|got|got-scraping\.gotScraping|gotScraping|ky|superagent)(\.(get|post|put|patch|delete|head|request))?$|(^|\.)(client|session|http|httpClient|http_client)\.(get|post|put|patch|delete|head|request|stream)$/i;

function isUrlParam(p: ParameterDefinition, root: ReturnType<typeof inputSchemaOf>): boolean {
  if (enumValues(p, root)) return false;
  if (keywordValue(p.schema, 'format', root) === 'uri' || keywordValue(p.schema, 'format', root) === 'url') return true;
  return URL_NAME.test(snakeCase(p.name));
}

function opensUrl(callee: string): 'file' | 'http' | undefined {
  if (READS_FILE_URLS.test(callee)) return 'file';
  if (HTTP_CALL.test(callee)) return 'http';
  return undefined;
}

function message(tool: ToolDefinition, param: string, callee: string, kind: 'file' | 'http'): string {
  const py = tool.language === 'python';
  const check = py
    ? '`parsed = urlparse(url); if parsed.scheme not in ("http", "https") or parsed.hostname not in ALLOWED_HOSTS: raise ValueError(...)`'
    : '`const u = new URL(url); if (!["http:", "https:"].includes(u.protocol) || !ALLOWED_HOSTS.has(u.hostname)) return { isError: true, ... }`';
  return kind === 'file'
    ? `The parameter \`${param}\` goes to ${callee} with no check of its scheme: it opens file: URLs too, so "file:///etc/passwd" or "file://~/.ssh/id_rsa" ` +
        `reads local files and hands them to the model (a prompt injection only has to ask). Accept http(s) only, e.g. ${check}.`
    : `The parameter \`${param}\` goes to ${callee} with no check of its host: any URL is fetched, so when the server runs remotely a model (or a prompt ` +
        `injection in a page it read) can reach internal addresses such as http://169.254.169.254/ or http://localhost:…. If the tool only needs some hosts, refuse the others, e.g. ${check}.`;
}

export const urlParamUnrestricted: Rule = {
  id: 'url-param-unrestricted',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A URL parameter reaches fetch / requests / httpx / urllib / a browser page with no scheme or host check.',
  checkTool(tool) {
    const h = tool.handler;
    if (!h || h.checksUrl) return [];
    const root = inputSchemaOf(tool);
    const urlParams = new Set(tool.parameters.filter((p) => isUrlParam(p, root)).map((p) => p.name));
    if (urlParams.size === 0) return [];
    const out: RuleFinding[] = [];
    for (const c of h.calls) {
      const kind = opensUrl(c.callee);
      const param = kind && c.paramsInUrlArg?.find((p) => urlParams.has(p));
      if (kind && param) {
        out.push(finding(tool, c.span, message(tool, param, c.callee, kind)));
        break;
      }
      // Through a helper of the same module (`fetch_url(url)` that calls `client.get(url)`): reported at the handler's call.
      const inner = c.urlArgInHelper?.find((u) => opensUrl(u.callee) && u.params.some((p) => urlParams.has(p)));
      if (inner) {
        const via = `${c.callee}() and on to ${inner.callee}`;
        out.push(
          finding(
            tool,
            c.span,
            message(
              tool,
              inner.params.find((p) => urlParams.has(p))!,
              via,
              opensUrl(inner.callee)!,
            ),
          ),
        );
        break;
      }
    }
    return out;
  },
};
