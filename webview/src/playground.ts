/**
 * The playground webview: server status, a tool picker, the arguments form generated from the inputSchema,
 * call / cancel / dry run / confirmation, results, history, resources and prompts, and the server's log.
 * It only talks to its host through typed messages (common/playground-messages.ts).
 */
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import './playground.css';
import {
  dryRunParameter,
  isDestructive,
  type HistoryEntry,
  type HostToWebview,
  type JsonObject,
  type LogEntry,
  type ServerView,
  type ToolView,
  type WebviewToHost,
} from '../../common/playground-messages';
import { riskLabel } from '../../common/risk';
import { joinSecretArgs, splitSecretArgs } from '../../common/secret-args';
import { SchemaForm } from './form/index';
import { button, h, setDisabled } from './form/dom';
import { clock, renderResult } from './playground/results';
import { CatalogView, readText, type CatalogFocus } from './playground/catalog';
import { ServerRequestsView } from './playground/serverRequests';
import { TimelineView } from './playground/timeline';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): PersistedState | undefined;
  setState(state: PersistedState): void;
}
interface PersistedState {
  selected?: string;
  drafts?: Record<string, JsonObject>;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const persisted: PersistedState = vscode.getState() ?? {};
// A draft stored by an earlier version may hold a secret in clear: what its names show is scrubbed at once.
if (persisted.drafts) {
  persisted.drafts = Object.fromEntries(Object.entries(persisted.drafts).map(([tool, draft]) => [tool, splitSecretArgs(draft, undefined).clear]));
  vscode.setState(persisted);
}
const post = (m: WebviewToHost) => vscode.postMessage(m);

const state = {
  server: undefined as ServerView | undefined,
  tools: [] as ToolView[],
  selected: persisted.selected,
  lastArgs: {} as Record<string, JsonObject>,
  history: [] as HistoryEntry[],
  form: undefined as SchemaForm | undefined,
  running: undefined as { callId: string; tool: string } | undefined,
  pending: undefined as { args: JsonObject; dryRun: boolean; tool: string } | undefined,
  catalogLoaded: false,
  catalogRequested: false,
  /** What the Servers tree asked to show once the catalog arrives. */
  catalogFocus: undefined as CatalogFocus | undefined,
};

// ---- layout -----------------------------------------------------------------------------------------------------

const serverBar = h('header', { class: 'server' });
const serverError = h('div', { class: 'server-error', role: 'alert', hidden: true });
const toolPicker = h('vscode-single-select', { class: 'tool-picker', 'aria-label': 'Tool' }) as HTMLElement & { value: string };
const toolHead = h('div', { class: 'tool-head' });
const rawToggle = h('vscode-checkbox', { label: 'Raw JSON', class: 'raw-toggle' }) as HTMLElement & { checked: boolean };
const formHost = h('div', { class: 'form-host' });
const callButton = button('Call', () => requestCall(false, false), { name: 'call' });
const dryRunButton = button('Dry run first', () => requestCall(false, true), { secondary: true, name: 'dry-run' });
const cancelButton = button('Cancel', () => state.running && post({ type: 'cancel', callId: state.running.callId }), { secondary: true, name: 'cancel' });
const progressEl = h('span', { class: 'progress', role: 'status' });
/** Determinate when the server's notifications/progress carry a total, indeterminate otherwise; hidden between calls. */
const progressBar = h('vscode-progress-bar', { class: 'progress-bar', hidden: true, 'aria-label': 'Progress' }) as HTMLElement & { value?: number; max: number; indeterminate: boolean };
const notice = h('div', { class: 'notice', role: 'alert', hidden: true });
const resultHost = h('div', { class: 'result-host' });
const historyList = h('ol', { class: 'history-list' });
const catalogHost = h('div', { class: 'catalog' });
const logList = h('ol', { class: 'log-list' });
const requestsHost = h('div', { class: 'server-requests', role: 'region', 'aria-label': 'The server asks' });
const timelineHost = h('div', { class: 'timeline' });

const app = h(
  'main',
  { class: 'playground' },
  serverBar,
  serverError,
  requestsHost,
  h(
    'div',
    { class: 'picker-row' },
    h('label', {}, 'Tool'),
    toolPicker,
    button('Go to definition', () => state.selected && post({ type: 'goToDefinition', tool: state.selected }), { secondary: true, name: 'definition' }),
  ),
  toolHead,
  h(
    'div',
    { class: 'form-tools' },
    rawToggle,
    button('Paste arguments', () => post({ type: 'paste' }), { secondary: true, name: 'paste', title: 'Fill the form from JSON arguments on the clipboard' }),
    button('Reset', () => resetForm(), { secondary: true, name: 'reset' }),
  ),
  formHost,
  h('div', { class: 'actions' }, callButton, dryRunButton, cancelButton, progressEl),
  progressBar,
  notice,
  resultHost,
  h('details', { class: 'history' }, h('summary', {}, 'History'), historyList),
  h('details', { class: 'catalog-box' }, h('summary', {}, 'Resources and prompts'), catalogHost),
  h('details', { class: 'log', open: true }, h('summary', {}, 'Server log'), logList),
  h('details', { class: 'timeline-box' }, h('summary', {}, 'Timeline')),
);
document.body.append(app);
const timelineBox = app.querySelector('.timeline-box') as HTMLDetailsElement;
timelineBox.append(timelineHost);
const timeline = new TimelineView(timelineHost, post);
timelineBox.querySelector('summary')?.append(timeline.count);
const saveBlob = (blobId: string) => post({ type: 'saveBlob', blobId });
const resultActions = { copy: (text: string) => post({ type: 'copy', text }), readResource: (uri: string) => readResource(uri), saveBlob };

const serverRequests = new ServerRequestsView(requestsHost, post);
const catalogBox = app.querySelector('.catalog-box') as HTMLDetailsElement;
const catalog = new CatalogView(catalogHost, { post, copy: (text) => post({ type: 'copy', text }), readResource: (uri) => readResource(uri), saveBlob });
function requestCatalog(): void {
  state.catalogRequested = true;
  post({ type: 'listCatalog' });
}
catalogBox.addEventListener('toggle', () => {
  if (catalogBox.open && !state.catalogLoaded && !state.catalogRequested) requestCatalog();
});
toolPicker.addEventListener('change', () => selectTool(toolPicker.value));
rawToggle.addEventListener('change', () => {
  if (!state.form) return;
  if (!state.form.setRaw(rawToggle.checked)) rawToggle.checked = !rawToggle.checked;
});
formHost.addEventListener('change', () => saveDraft());
formHost.addEventListener('input', () => saveDraft());

/** The form's unsent arguments, in the webview state (a plain file): secret values stay out (common/secret-args.ts). */
function saveDraft(): void {
  if (!state.form || !state.selected) return;
  const clear = splitSecretArgs(state.form.getArgs(), currentTool()?.inputSchema).clear;
  persisted.drafts = { ...(persisted.drafts ?? {}), [state.selected]: clear };
  persisted.selected = state.selected;
  vscode.setState(persisted);
}

// ---- server and tools -------------------------------------------------------------------------------------------

function renderServer(): void {
  const s = state.server;
  serverBar.replaceChildren();
  if (!s) return;
  const running = s.status === 'running';
  serverBar.append(
    ...[
      h('strong', { class: 'server-name' }, s.name),
      h('span', { class: `status status-${s.status}`, 'data-status': s.status }, s.status),
      s.serverInfo ? h('span', { class: 'server-info' }, `${s.serverInfo.name} ${s.serverInfo.version}`) : undefined,
      s.protocolVersion ? h('span', { class: 'protocol', title: 'MCP protocol version' }, `protocol ${s.protocolVersion}`) : undefined,
      running ? button('Restart', () => post({ type: 'restart' }), { secondary: true, name: 'restart' }) : button('Start', () => post({ type: 'start' }), { name: 'start' }),
      button('Log', () => post({ type: 'showLog' }), { secondary: true, name: 'show-log', title: 'Show the server output channel' }),
    ].filter((x): x is HTMLElement => x !== undefined),
  );
  serverError.hidden = !s.error || running;
  serverError.textContent = s.error && !running ? s.error : '';
  updateActions();
}

/** Sets the picker's value now and again once freshly slotted options are known to the component. */
function setPickerValue(v: string): void {
  toolPicker.value = v;
  requestAnimationFrame(() => {
    if (toolPicker.value !== v) toolPicker.value = v;
  });
}

let pickerKey = '';
function renderPicker(): void {
  // Re-slotting identical options would reset the component's selection for nothing.
  const key = JSON.stringify([state.server?.status === 'running', state.tools.map((t) => [t.name, t.title])]);
  if (key === pickerKey) {
    if (state.selected) setPickerValue(state.selected);
    return;
  }
  pickerKey = key;
  toolPicker.replaceChildren(...state.tools.map((t) => h('vscode-option', { value: t.name, description: t.title ?? '' }, t.title ? `${t.title} (${t.name})` : t.name)));
  if (state.tools.length === 0) toolPicker.append(h('vscode-option', { value: '' }, state.server?.status === 'running' ? '(no tools)' : '(start the server to list its tools)'));
  if (state.selected) setPickerValue(state.selected);
}

function currentTool(): ToolView | undefined {
  return state.tools.find((t) => t.name === state.selected);
}

function selectTool(name: string | undefined, args?: JsonObject): void {
  const tool = state.tools.find((t) => t.name === name) ?? state.tools[0];
  state.selected = tool?.name;
  persisted.selected = state.selected;
  vscode.setState(persisted);
  setPickerValue(state.selected ?? '');
  state.pending = undefined;
  notice.hidden = true;
  toolHead.replaceChildren();
  formHost.replaceChildren();
  state.form = undefined;
  rawToggle.checked = false;
  if (!tool) {
    updateActions();
    return;
  }
  const { risk } = tool;
  toolHead.append(
    h(
      'div',
      { class: 'tool-title' },
      h('strong', {}, tool.title ?? tool.name),
      tool.title ? h('code', {}, tool.name) : undefined,
      h('span', { class: `risk risk-${risk.level.toLowerCase()}`, 'data-risk': risk.level, title: risk.reasons.join('\n') }, riskLabel(risk)),
    ),
    tool.description ? h('p', { class: 'description' }, tool.description) : '',
  );
  state.form = new SchemaForm(tool.inputSchema);
  // A draft holds placeholders for its secrets: they come back from the last call's arguments (SecretStorage), else stay empty.
  const draft = persisted.drafts?.[tool.name];
  const last = state.lastArgs[tool.name];
  const start = args ?? (draft ? joinSecretArgs(draft, last ? splitSecretArgs(last, tool.inputSchema).secrets : undefined) : last);
  if (start) state.form.setArgs(start);
  formHost.append(state.form.el);
  dryRunButton.hidden = !dryRunParameter(tool);
  updateActions();
}

function resetForm(): void {
  if (!state.selected) return;
  if (persisted.drafts) delete persisted.drafts[state.selected];
  vscode.setState(persisted);
  const keep = state.lastArgs[state.selected];
  delete state.lastArgs[state.selected];
  selectTool(state.selected);
  if (keep) state.lastArgs[state.selected] = keep;
}

function updateActions(): void {
  const running = state.server?.status === 'running';
  setDisabled(callButton, !running || !state.form || !!state.running);
  setDisabled(dryRunButton, !running || !state.form || !!state.running);
  cancelButton.hidden = !state.running;
}

// ---- calls ------------------------------------------------------------------------------------------------------

let callSeq = 0;

function showNotice(...children: (Node | string)[]): void {
  notice.replaceChildren(...children);
  notice.hidden = false;
}

function requestCall(force: boolean, dryRun: boolean, confirmed = false): void {
  const tool = currentTool();
  const form = state.form;
  if (!tool || !form) return;
  notice.hidden = true;
  form.clearErrors();
  const problems = form.problems();
  if (problems.length && !force) {
    showNotice(h('div', {}, `Fix the form first: ${problems.join('; ')}`));
    return;
  }
  const args = form.getArgs();
  const dry = dryRunParameter(tool);
  if (dryRun && dry) args[dry] = true;
  // Destructive tools ask first (a dry run is the safe way to look before leaping).
  if (isDestructive(tool.annotations) && !confirmed && !(dryRun && dry)) {
    showNotice(
      h('div', { class: 'confirm' }, h('strong', {}, `${tool.name} is marked destructive.`), ' Call it for real with these arguments?'),
      h(
        'div',
        { class: 'buttons' },
        button('Call it', () => requestCall(force, false, true), { name: 'confirm-call' }),
        dry ? button('Dry run first', () => requestCall(force, true, true), { secondary: true, name: 'confirm-dry-run' }) : '',
        button('Cancel', () => (notice.hidden = true), { secondary: true, name: 'confirm-cancel' }),
      ),
    );
    return;
  }
  send(tool.name, args, force, dryRun && !!dry);
}

function send(tool: string, args: JsonObject, force: boolean, dryRun: boolean): void {
  const callId = `c${Date.now().toString(36)}-${++callSeq}`;
  state.pending = { args, dryRun, tool };
  state.running = { callId, tool };
  // The previous result is not this call's: it goes, so nothing on screen is mistaken for the new answer.
  resultHost.replaceChildren();
  progressEl.textContent = 'Calling…';
  setProgress(undefined);
  updateActions();
  post({ type: 'call', callId, tool, args, force, dryRun });
}

/** The progress bar: hidden when no call runs, indeterminate without a total. */
function setProgress(p: { progress: number; total?: number } | undefined | null): void {
  if (p === null) {
    progressBar.hidden = true;
    return;
  }
  progressBar.hidden = false;
  if (p && p.total !== undefined && p.total > 0) {
    progressBar.indeterminate = false;
    progressBar.max = p.total;
    progressBar.value = Math.min(p.progress, p.total);
    progressBar.setAttribute('aria-valuenow', String(p.progress));
    progressBar.setAttribute('aria-valuemax', String(p.total));
  } else {
    progressBar.indeterminate = true;
    progressBar.removeAttribute('aria-valuenow');
  }
}

function onValidation(violations: { path: string; message: string }[]): void {
  state.running = undefined;
  progressEl.textContent = '';
  setProgress(null);
  updateActions();
  state.form?.showViolations(violations);
  const pending = state.pending;
  showNotice(
    h('div', {}, h('strong', {}, 'The arguments do not match the inputSchema.'), ` ${violations.length} problem${violations.length === 1 ? '' : 's'} shown at the fields.`),
    h('ul', { class: 'violation-list' }, ...violations.map((v) => h('li', {}, h('code', {}, v.path || '/'), ` ${v.message}`))),
    h(
      'div',
      { class: 'buttons' },
      button('Send anyway', () => pending && send(pending.tool, pending.args, true, pending.dryRun), {
        secondary: true,
        name: 'send-anyway',
        title: "Send the arguments as they are, to test the server's own validation",
      }),
    ),
  );
}

function onResult(result: Extract<HostToWebview, { type: 'result' }>['result']): void {
  state.running = undefined;
  progressEl.textContent = '';
  setProgress(null);
  updateActions();
  const pending = state.pending;
  resultHost.replaceChildren(renderResult(result, resultActions));
  if (result.kind === 'result' && result.dryRun && pending) {
    // After a dry run, the real call is one click away.
    const dry = currentTool() && dryRunParameter(currentTool()!);
    const realArgs = { ...pending.args };
    if (dry) delete realArgs[dry];
    resultHost.prepend(
      h(
        'div',
        { class: 'after-dry-run' },
        'That was a dry run. ',
        button('Now run it for real', () => send(pending.tool, realArgs, true, false), { name: 'run-for-real' }),
      ),
    );
  }
}

// ---- history, catalog, log --------------------------------------------------------------------------------------

function renderHistory(): void {
  historyList.replaceChildren(
    ...state.history.map((e) => {
      const kind = e.kind ?? 'tool';
      return h(
        'li',
        { class: `${e.ok ? 'ok' : 'failed'} history-${kind}`, 'data-kind': kind },
        h('span', { class: 'when' }, new Date(e.at).toLocaleTimeString()),
        h('span', { class: 'history-kind' }, kind === 'tool' ? 'tools/call' : kind === 'prompt' ? 'prompts/get' : 'resources/read'),
        h('code', {}, e.tool),
        h('span', { class: 'summary' }, e.summary),
        h('span', { class: 'duration' }, `${e.durationMs} ms`),
        button(kind === 'tool' ? 'Re-run' : kind === 'prompt' ? 'Get again' : 'Read again', () => rerun(e), { secondary: true, name: 'rerun' }),
        kind === 'tool' ? button('Fill form', () => selectTool(e.tool, e.args), { secondary: true, name: 'fill' }) : undefined,
      );
    }),
  );
}

function rerun(e: HistoryEntry): void {
  if (e.kind === 'prompt') {
    // Answered in the prompt's catalog row when it is listed there, else with the results.
    const args = Object.fromEntries(Object.entries(e.args).filter((kv): kv is [string, string] => typeof kv[1] === 'string'));
    post({ type: 'getPrompt', name: e.tool, args });
    return;
  }
  if (e.kind === 'resource') {
    readResource(e.tool);
    return;
  }
  selectTool(e.tool, e.args);
  requestCall(false, false);
}

function readResource(uri: string): void {
  post({ type: 'readResource', uri });
}

function addLog(e: LogEntry): void {
  const li = h(
    'li',
    { class: `level-${e.level} source-${e.source}` },
    h('span', { class: 'when' }, new Date(e.at).toLocaleTimeString()),
    h('span', { class: 'level' }, e.level),
    e.logger ? h('span', { class: 'logger' }, `[${e.logger}]`) : '',
    h('span', { class: 'text' }, e.text),
  );
  logList.append(li);
  while (logList.childElementCount > 500) logList.firstElementChild?.remove();
}

// ---- messages ---------------------------------------------------------------------------------------------------

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const m = event.data;
  if (!m || typeof m !== 'object') return;
  switch (m.type) {
    case 'init':
      state.server = m.server;
      state.tools = m.tools;
      state.lastArgs = m.lastArgs;
      state.history = m.history;
      renderServer();
      renderPicker();
      selectTool(m.selected ?? state.selected);
      renderHistory();
      break;
    case 'server':
      state.server = m.server;
      renderServer();
      if (m.server.status !== 'running' && state.running) {
        progressEl.textContent = '';
      }
      break;
    case 'tools': {
      state.tools = m.tools;
      const keep = state.form?.getArgs();
      renderPicker();
      if (!state.form || !m.tools.some((t) => t.name === state.selected)) selectTool(state.selected);
      else selectTool(state.selected, keep);
      break;
    }
    case 'select':
      // A click in the Servers tree on the tool already shown keeps what was typed (the click that opened the panel
      // can arrive after the first keystrokes); another tool starts from a fresh form.
      if (m.tool === state.selected && state.form) break;
      if (persisted.drafts) delete persisted.drafts[m.tool];
      selectTool(m.tool);
      break;
    case 'validation':
      onValidation(m.violations);
      break;
    case 'callStarted':
      progressEl.textContent = 'Running…';
      break;
    case 'progress':
      if (state.running?.callId === m.callId) {
        progressEl.textContent = `Progress ${m.progress}${m.total !== undefined ? `/${m.total}` : ''}${m.message ? ` — ${m.message}` : ''}`;
        setProgress(m);
      }
      break;
    case 'result':
      onResult(m.result);
      break;
    case 'history':
      state.history = m.history;
      if (state.selected && state.pending && !state.pending.dryRun) state.lastArgs[state.selected] = state.pending.args;
      renderHistory();
      break;
    case 'log':
      addLog(m.entry);
      break;
    case 'catalog':
      state.catalogLoaded = true;
      state.catalogRequested = false;
      catalog.render(m.resources, m.templates, m.prompts, m.error, m.completions);
      if (state.catalogFocus) {
        catalog.focus(state.catalogFocus);
        state.catalogFocus = undefined;
      }
      break;
    case 'showCatalog':
      state.catalogFocus = { resource: m.resource, template: m.template, prompt: m.prompt };
      catalogBox.open = true;
      // Listed anew: the tree may know items this panel has not seen yet.
      requestCatalog();
      break;
    case 'resourceRead': {
      // In its catalog row when there is one, else with the results (a resource link of a tool result).
      if (catalog.onResourceRead(m)) break;
      resultHost.append(
        h(
          'div',
          { class: 'content read-result' },
          h('div', { class: 'bar' }, h('span', { class: 'result-label' }, h('span', { class: 'kind' }, 'resources/read '), h('code', { class: 'result-tool' }, m.uri), ` at ${clock(Date.now())}`)),
          readText(m, saveBlob),
        ),
      );
      break;
    }
    case 'timeline':
      timeline.onTimeline(m);
      break;
    case 'replayed':
      timeline.onReplayed(m);
      break;
    case 'timelineExported':
      timeline.onExported(m);
      break;
    case 'subscriptions':
      catalog.onSubscriptions(m);
      break;
    case 'resourceUpdated':
      catalog.onResourceUpdated(m);
      break;
    case 'serverRequest':
      serverRequests.show(m.request);
      break;
    case 'serverRequestEnded':
      serverRequests.ended(m.id, m.reason);
      break;
    case 'serverRequestViolations':
      serverRequests.violations(m.id, m.violations);
      break;
    case 'cannedReplies':
      serverRequests.onCannedReplies(m.replies);
      break;
    case 'languageModel':
      serverRequests.onLanguageModel(m);
      break;
    case 'modelReply':
      serverRequests.onModelReply(m);
      break;
    case 'promptGot':
      if (!catalog.onPromptGot(m)) {
        // A prompt got again from the history whose row is not on screen: with the results, labelled.
        resultHost.append(
          h(
            'div',
            { class: 'content read-result' },
            h('div', { class: 'bar' }, h('span', { class: 'result-label' }, h('span', { class: 'kind' }, 'prompts/get '), h('code', { class: 'result-tool' }, m.name), ` at ${clock(Date.now())}`)),
            h('pre', {}, m.error ?? m.raw ?? ''),
          ),
        );
      }
      break;
    case 'completion':
      catalog.onCompletion(m);
      break;
    case 'pasted': {
      try {
        const v = JSON.parse(m.text) as Record<string, unknown> | null;
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the clipboard holds JSON, but not an object');
        // Accept a whole tools/call params object too: {name, arguments}.
        const args = v.arguments && typeof v.arguments === 'object' && typeof v.name === 'string' ? (v.arguments as Record<string, unknown>) : v;
        state.form?.setArgs(args);
        saveDraft();
        notice.hidden = true;
      } catch (err) {
        showNotice(`Paste arguments: the clipboard does not hold a JSON object of arguments (${(err as Error).message}).`);
      }
      break;
    }
  }
});

post({ type: 'ready' });
