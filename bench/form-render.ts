/**
 * Time to render the playground form of a 100-field inputSchema in headless Chromium (the built webview under its
 * CSP): from the host message to the last field in the DOM and laid out. Medians over alternating tools.
 */
import { openWebview, load, closeBrowser } from '../test/webview/harness';

export function hundredFieldSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const kinds = [
    { type: 'string', description: 'free text', maxLength: 200 },
    { type: 'integer', minimum: 0, maximum: 1000 },
    { type: 'number' },
    { type: 'boolean', default: false },
    { type: 'string', enum: ['a', 'b', 'c', 'd'] },
    { type: 'string', format: 'email' },
    { type: 'array', items: { type: 'string' } },
    { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'string' } }, required: ['x'] },
    { anyOf: [{ type: 'string' }, { type: 'null' }] },
    { type: 'array', items: { type: 'string', enum: ['r', 'w', 'x'] } },
  ];
  for (let i = 0; i < 100; i++) properties[`f${i}`] = { ...kinds[i % kinds.length], description: `Field number ${i}` };
  return { type: 'object', properties, required: ['f0', 'f1', 'f4'] };
}

export async function measureFormRender(runs = 15): Promise<{ medianMs: number; minMs: number; runs: number; fields: number }> {
  const wp = await openWebview('playground');
  try {
    await load(wp);
    const schema = hundredFieldSchema();
    const times: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const name = `tool_${i}`;
      // A string, not a function: tsx would wrap inner names in a helper the page does not have.
      const ms = await wp.page.evaluate<number>(`new Promise((resolve) => {
        const name = ${JSON.stringify(name)};
        const t0 = performance.now();
        window.postMessage({ type: 'init', server: { id: 'b', name: 'bench', status: 'running' }, tools: [{ name, inputSchema: ${JSON.stringify(schema)} }], selected: name, lastArgs: {}, history: [] }, '*');
        const check = () => {
          const last = document.querySelector('.tool-head')?.textContent?.includes(name) && document.querySelector('.field[data-path="/f99"]');
          // Force layout so the figure includes styling and layout, not only DOM creation.
          if (last) { last.getBoundingClientRect(); resolve(performance.now() - t0); } else setTimeout(check, 0);
        };
        check();
      })`);
      if (i >= 2) times.push(ms);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { medianMs: sorted[Math.floor(sorted.length / 2)], minMs: sorted[0], runs, fields: 100 };
  } finally {
    await wp.close();
    await closeBrowser();
  }
}

if (require.main === module) void measureFormRender().then((r) => console.log(JSON.stringify(r, null, 2)));
