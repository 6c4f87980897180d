import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { normalizeSettings, DEFAULT_THRESHOLDS } from '../../common/settings';

test('settings: malformed values fall back to defaults, valid overrides are kept', () => {
  const s = normalizeSettings({ rules: { 'tool-name-vague': 'off', 'bogus-level': 'loud' }, naming: { style: 'domain.verb' }, thresholds: { maxParams: 5, maxTools: 'x' } });
  assert.deepEqual(s.rules, { 'tool-name-vague': 'off' });
  assert.equal(s.naming.style, 'domain.verb');
  assert.equal(s.thresholds.maxParams, 5);
  assert.equal(s.thresholds.maxTools, DEFAULT_THRESHOLDS.maxTools);
  assert.deepEqual(normalizeSettings(null).rules, {});
});

test('settings that launch processes are restricted: in Restricted Mode VS Code ignores their workspace values', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json') as {
    capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
  for (const key of ['toolsmith.servers', 'toolsmith.playground.restartOnSave']) {
    assert.ok(key in pkg.contributes.configuration.properties, `${key} is a contributed setting`);
    assert.ok(restricted.includes(key), `${key} is restricted`);
  }
});
