/**
 * CREATE_ENDPOINT_FIELDS is the one list of the create body's fields that the deploy engine and the emulator
 * walk; the schema is the authority on which fields there are, and CreateEndpointRequest must not know others.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CREATE_ENDPOINT_FIELDS, type CreateEndpointField, type CreateEndpointRequest } from '../../../core/api/types';
import { rootSchemaView } from '../../../core/endpointSpec/schemas';

test('the create body field list names exactly the fields of the create schema, once each', () => {
  const schemaFields = [...rootSchemaView('create').properties.keys()];
  assert.deepEqual([...CREATE_ENDPOINT_FIELDS].sort(), schemaFields.sort());
  assert.equal(new Set(CREATE_ENDPOINT_FIELDS).size, CREATE_ENDPOINT_FIELDS.length);
});

test('CreateEndpointRequest has no field the list leaves out', () => {
  // A type error here names the field of CreateEndpointRequest missing from CREATE_ENDPOINT_FIELDS.
  type Unlisted = Exclude<keyof CreateEndpointRequest, CreateEndpointField>;
  const unlisted: [Unlisted] extends [never] ? 'none' : Unlisted = 'none';
  assert.equal(unlisted, 'none');
});
