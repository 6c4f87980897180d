/**
 * What a tool does, read from its name and its handler's calls (reads, writes, deletes, leaves the system): the
 * vocabulary the annotation, risk and results rules share, kept in one place so the rules and the risk level agree.
 */
import type { CallFact, ToolDefinition } from '../../analysis/model';
import { memoByObject, memoByString } from './memo';
import { nameTokens } from './names';

// prettier-ignore
const READ = new Set([
  'get', 'list', 'search', 'find', 'fetch', 'read', 'query', 'lookup', 'look', 'describe', 'show', 'view', 'count',
  'check', 'validate', 'preview', 'inspect', 'resolve', 'summarize', 'summarise', 'calculate', 'compute', 'estimate',
  'explain', 'analyze', 'analyse', 'browse', 'download', 'export', 'load', 'retrieve', 'scan', 'grep', 'diff', 'compare',
  'convert', 'format', 'parse', 'render', 'translate', 'ping', 'status', 'whoami', 'echo', 'greet', 'recommend', 'suggest',
]);
// prettier-ignore
const DESTRUCTIVE = new Set([
  'delete', 'remove', 'drop', 'destroy', 'purge', 'erase', 'wipe', 'truncate', 'revoke', 'clear', 'reset', 'overwrite',
  'kill', 'terminate', 'uninstall', 'unlink', 'rm', 'cancel', 'ban', 'evict', 'shred', 'prune', 'unpublish', 'deactivate',
]);
/** Writes whose effect leaves the system: messages, money, publication. */
// prettier-ignore
const EXTERNAL = new Set([
  'send', 'email', 'mail', 'notify', 'sms', 'text', 'tweet', 'post', 'publish', 'broadcast', 'pay', 'charge', 'refund',
  'transfer', 'wire', 'payout', 'invoice', 'message', 'dm', 'call', 'dial',
]);
// prettier-ignore
const WRITE = new Set([
  'create', 'add', 'insert', 'update', 'edit', 'modify', 'set', 'put', 'patch', 'save', 'write', 'upload', 'append',
  'rename', 'move', 'copy', 'assign', 'register', 'enable', 'disable', 'archive', 'book', 'reserve', 'schedule',
  'comment', 'import', 'sync', 'merge', 'approve', 'reject', 'close', 'reopen', 'start', 'stop', 'restart', 'deploy',
  'install', 'grant', 'invite', 'mark', 'tag', 'label', 'link', 'submit', 'apply', 'commit', 'push', 'upsert', 'replace',
  'store', 'record', 'log', 'increment', 'decrement', 'toggle', 'share', 'subscribe', 'unsubscribe', 'order', 'buy',
  'purchase', 'sign', 'lock', 'unlock', 'activate', 'provision', 'scale', 'launch', 'enqueue',
  'migrate', 'restore', 'rollback', 'revert', 'fork', 'clone', 'generate', 'make', 'new', 'build',
]);
/** Writes that, repeated with the same arguments, change nothing more (a set, not an append). */
// prettier-ignore
const IDEMPOTENT_WRITE = new Set([
  'set', 'put', 'upsert', 'update', 'replace', 'delete', 'remove', 'enable', 'disable', 'archive', 'mark', 'assign',
  'lock', 'unlock', 'activate', 'deactivate', 'revoke', 'clear', 'reset', 'overwrite', 'uninstall', 'install',
]);
/** Verbs and objects that reach other people's data or rights. */
// prettier-ignore
const OTHER_USERS = new Set(['invite', 'share', 'grant', 'revoke', 'assign', 'ban', 'permission', 'permissions', 'role', 'roles', 'acl', 'access', 'member', 'members']);
const BULK = new Set(['bulk', 'batch', 'mass', 'all', 'every', 'broadcast']);

type VerbKind = 'read' | 'write' | 'destructive';

interface NameIntent {
  /** The action word the classification comes from, if any. */
  verb?: string;
  kind?: VerbKind;
  /** Sends, pays, publishes: the effect leaves the system. */
  external: boolean;
  /** bulk_*, *_all, batch, mass sends. */
  bulk: boolean;
  /** A set-like write (update, delete...) rather than an append (create, send...). */
  idempotent: boolean;
  /** Touches other users' data or rights (invite, grant, permissions...). */
  otherUsers: boolean;
}

/**
 * Reads the action word of the name: the first word of its last dotted segment (`create_issue`, `deleteAllFiles`,
 * `emails.send_external`), after a leading bulk word (`bulk_send`, `mass_delete`). A name that does not start with
 * a known verb is not classified: a word further on is usually the object (`wait_for_build`, `get_post`).
 */
export function nameIntent(name: string): NameIntent {
  return cachedIntent(name);
}

// Read by five rules per tool (and the risk level): once per name. Frozen: every caller shares the answer.
const cachedIntent = memoByString((name: string): NameIntent => Object.freeze(computeNameIntent(name)));

function computeNameIntent(name: string): NameIntent {
  const segment = name.split('.').pop() ?? name;
  const words = nameTokens(segment);
  const all = nameTokens(name);
  let verb: string | undefined;
  let kind: VerbKind | undefined;
  const first = words.find((w) => !BULK.has(w) || w === 'broadcast');
  if (first !== undefined) {
    if (DESTRUCTIVE.has(first)) kind = 'destructive';
    else if (EXTERNAL.has(first) || WRITE.has(first)) kind = 'write';
    else if (READ.has(first)) kind = 'read';
    if (kind) verb = first;
  }
  const external = verb !== undefined && EXTERNAL.has(verb);
  return {
    verb,
    kind,
    external,
    bulk: all.some((w) => BULK.has(w)),
    idempotent: verb !== undefined && IDEMPOTENT_WRITE.has(verb),
    otherUsers: all.some((w) => OTHER_USERS.has(w)),
  };
}

const lastSegment = (callee: string) => callee.split('.').pop() ?? callee;

const FS_WRITE =
  /^(writeFile|writeFileSync|appendFile|appendFileSync|mkdir|mkdirSync|rename|renameSync|copyFile|copyFileSync|cp|cpSync|write_text|write_bytes|makedirs|mkdirs|touch|copy|copy2|copyfile|copytree|move|createWriteStream)$/;
const FS_DELETE = /^(unlink|unlinkSync|rm|rmSync|rmdir|rmdirSync|remove|removedirs|rmtree|unlink_missing)$/;
const NETWORK = /^(fetch|request|get|post|put|patch|delete|head|urlopen|send|sendMail|send_message|sendmail|create_connection)$/;
const NETWORK_OWNERS = /^(requests|httpx|aiohttp|urllib|urllib3|axios|got|superagent|http|https|undici|fetch|client|session|smtplib)\b/i;
const NET_WRITE = /^(post|put|patch|delete|send|sendMail|send_message|sendmail)$/;

interface HandlerEffects {
  writesFiles: boolean;
  deletesFiles: boolean;
  /** Talks to the network (fetch, requests, httpx...). */
  network: boolean;
  /** A network call that writes (POST/PUT/DELETE, send mail). */
  networkWrites: boolean;
  /** The call that shows the effect, for messages. */
  evidence?: CallFact;
}

/** What the handler's calls show it does. Unknown callees say nothing. */
export function handlerEffects(tool: ToolDefinition): HandlerEffects {
  return cachedEffects(tool);
}

// Every call of the handler is matched against five patterns, for four rules: once per tool and rules pass.
const cachedEffects = memoByObject((tool: ToolDefinition): HandlerEffects => Object.freeze(computeHandlerEffects(tool)));

function computeHandlerEffects(tool: ToolDefinition): HandlerEffects {
  const out: HandlerEffects = { writesFiles: false, deletesFiles: false, network: false, networkWrites: false };
  for (const call of tool.handler?.calls ?? []) {
    const kind = calleeEffect(call.callee);
    if (kind === 0) continue;
    if (kind & DELETES) {
      out.deletesFiles = true;
      out.evidence ??= call;
    } else if (kind & WRITES) {
      out.writesFiles = true;
      out.evidence ??= call;
    }
    if (kind & NET) {
      out.network = true;
      if (kind & NET_WRITES) {
        out.networkWrites = true;
        out.evidence ??= call;
      }
    }
  }
  return out;
}

const DELETES = 1;
const WRITES = 2;
const NET = 4;
const NET_WRITES = 8;

// What one callee does depends on its text only: handlers repeat the same callees (`results.append`), so classify
// each distinct callee once.
const calleeEffect = memoByString((callee: string): number => {
  let kind = 0;
  const last = lastSegment(callee);
  const owner = callee.split('.')[0] ?? '';
  const fsOwner = /^(fs|fsp|fsPromises|promises|os|shutil|path|pathlib|Path|p|file|aiofiles)$/.test(owner) || callee.startsWith('fs.');
  if (FS_DELETE.test(last) && (fsOwner || callee.includes('.'))) kind |= DELETES;
  else if (FS_WRITE.test(last) && (fsOwner || callee.includes('.'))) kind |= WRITES;
  const isNet = callee === 'fetch' || (NETWORK.test(last) && NETWORK_OWNERS.test(callee));
  if (isNet) {
    kind |= NET;
    if (NET_WRITE.test(last)) kind |= NET_WRITES;
  }
  return kind;
});

/** Whether the tool changes anything, from its name first and its handler second. */
export function toolWrites(tool: ToolDefinition): { writes: boolean; destructive: boolean; why: string } {
  return cachedWrites(tool);
}

const cachedWrites = memoByObject((tool: ToolDefinition) => Object.freeze(computeToolWrites(tool)));

function computeToolWrites(tool: ToolDefinition): { writes: boolean; destructive: boolean; why: string } {
  const name = tool.name.value ?? '';
  const intent = nameIntent(name);
  const fx = handlerEffects(tool);
  if (intent.kind === 'destructive') return { writes: true, destructive: true, why: `its name says "${intent.verb}"` };
  if (fx.deletesFiles) return { writes: true, destructive: true, why: `its handler calls ${fx.evidence?.callee}` };
  if (intent.kind === 'write') return { writes: true, destructive: false, why: `its name says "${intent.verb}"` };
  if (fx.writesFiles || fx.networkWrites) return { writes: true, destructive: false, why: `its handler calls ${fx.evidence?.callee}` };
  return { writes: false, destructive: false, why: '' };
}
