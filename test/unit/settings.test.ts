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
