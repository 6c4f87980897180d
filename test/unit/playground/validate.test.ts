/**
 * The playground validates arguments and structuredContent against schemas the server sends: a hostile or careless
 * schema must not stall or crash the extension host.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validate, MAX_SCHEMA_DEPTH } from '../../../client/src/playground/validate';

test('a catastrophic pattern (^(a+)+$) is matched in linear time: 5,000 characters in well under a second (28 took 1.5 s, doubling per character)', () => {
  const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
  const t0 = performance.now();
  const r = validate(schema, { s: `${'a'.repeat(5000)}!` });
  const ms = performance.now() - t0;
  assert.equal(r.valid, false);
  assert.equal(r.violations[0]?.keyword, 'pattern');
  assert.ok(ms < 1000, `took ${ms.toFixed(0)} ms`);
  assert.equal(validate(schema, { s: 'aaaa' }).valid, true);
});

test('patterns keep JSON Schema semantics: unanchored search, unicode classes', () => {
  const schema = { type: 'object', properties: { zip: { type: 'string', pattern: '\\d{5}' }, name: { type: 'string', pattern: '^\\p{L}+$' } } };
  assert.equal(validate(schema, { zip: 'FR-75001', name: 'Élodie' }).valid, true);
  assert.deepEqual(
    validate(schema, { zip: '750', name: 'x1' })
      .violations.map((v) => v.path)
      .sort(),
    ['/name', '/zip'],
  );
});

test('a pattern the linear-time engine cannot compile is a schema error that says so, not a hang and not a silent pass', () => {
  const r = validate({ type: 'object', properties: { s: { type: 'string', pattern: '^(?!admin).*$' } } }, { s: 'admin' });
  assert.equal(r.valid, true);
  assert.match(r.schemaError ?? '', /pattern uses syntax the linear-time regex engine does not support.*not validated here/);
});

test('a 5,000-deep schema or value is reported, never thrown into the caller', () => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 5000; i++) schema = { type: 'object', properties: { a: schema } };
  const deep = validate(schema, {});
  assert.match(deep.schemaError ?? '', new RegExp(`nested more than ${MAX_SCHEMA_DEPTH} levels`));
  // A recursive schema is shallow; the value is what is deep.
  const recursive = { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } } };
  let value: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) value = { next: value };
  const r = validate(recursive, value);
  assert.equal(r.valid, true);
  assert.match(r.schemaError ?? '', /validation failed/);
});

test('an invalid anyOf is one violation, not one per branch plus "must match a schema in anyOf"', () => {
  const schema = {
    type: 'object',
    properties: {
      id: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
      pick: { oneOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { type: 'boolean' }] },
    },
  };
  const r = validate(schema, { id: true, when: 'soon', pick: { a: 'x' } });
  assert.deepEqual(
    r.violations.map((v) => `${v.path} ${v.message}`),
    [
      '/id must be string or number',
      '/when matches none of the anyOf alternatives: must match format "date"; must be null',
      '/pick matches none of the oneOf alternatives: a must be integer; must be boolean',
    ],
  );
  assert.equal(validate(schema, { id: 3, when: null, pick: true }).valid, true);
});
