/**
 * What SARIF 2.1.0 (OASIS standard, with errata 01) requires of the parts of a log `validate --format sarif`
 * writes, as a draft-07 JSON Schema for Ajv: the required properties, the enumerations and the lower bounds
 * of regions, written out from the standard's own schema (sarif-schema-2.1.0.json), which no well-kept npm
 * package ships. Properties a log may carry beyond these are left to that schema; these are the ones code
 * scanning rejects a log without.
 */
const message = { type: 'object', anyOf: [{ required: ['text'] }, { required: ['id'] }], properties: { text: { type: 'string' } } };
const level = { enum: ['none', 'note', 'warning', 'error'] };
const multiformatMessage = { type: 'object', required: ['text'], properties: { text: { type: 'string' }, markdown: { type: 'string' } } };
const oneBased = { type: 'integer', minimum: 1 };

const artifactLocation = {
  type: 'object',
  properties: { uri: { type: 'string', minLength: 1 }, uriBaseId: { type: 'string' }, index: { type: 'integer', minimum: -1 } },
};

const location = {
  type: 'object',
  properties: {
    physicalLocation: {
      type: 'object',
      anyOf: [{ required: ['address'] }, { required: ['artifactLocation'] }],
      properties: {
        artifactLocation,
        region: {
          type: 'object',
          properties: { startLine: oneBased, startColumn: oneBased, endLine: oneBased, endColumn: oneBased },
        },
      },
    },
    logicalLocations: { type: 'array', items: { type: 'object', properties: { fullyQualifiedName: { type: 'string' } } } },
  },
};

const reportingDescriptor = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string' },
    shortDescription: multiformatMessage,
    fullDescription: multiformatMessage,
    help: multiformatMessage,
    helpUri: { type: 'string' },
    defaultConfiguration: { type: 'object', properties: { level } },
  },
};

const descriptorReference = { type: 'object', anyOf: [{ required: ['id'] }, { required: ['index'] }, { required: ['guid'] }] };

export const SARIF_2_1_0_REQUIREMENTS = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['version', 'runs'],
  properties: {
    $schema: { type: 'string' },
    version: { const: '2.1.0' },
    runs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool'],
        properties: {
          tool: {
            type: 'object',
            required: ['driver'],
            properties: {
              driver: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string' },
                  version: { type: 'string' },
                  informationUri: { type: 'string' },
                  rules: { type: 'array', items: reportingDescriptor, uniqueItems: true },
                },
              },
            },
          },
          originalUriBaseIds: { type: 'object', additionalProperties: artifactLocation },
          columnKind: { enum: ['utf16CodeUnits', 'unicodeCodePoints'] },
          invocations: {
            type: 'array',
            items: {
              type: 'object',
              required: ['executionSuccessful'],
              properties: {
                executionSuccessful: { type: 'boolean' },
                toolExecutionNotifications: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['message'],
                    properties: { message, level, descriptor: descriptorReference, locations: { type: 'array', items: location } },
                  },
                },
              },
            },
          },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['message'],
              properties: {
                ruleId: { type: 'string' },
                ruleIndex: { type: 'integer', minimum: -1 },
                level,
                message,
                locations: { type: 'array', items: location },
              },
            },
          },
        },
      },
    },
  },
} as const;
