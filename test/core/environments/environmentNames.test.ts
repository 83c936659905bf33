/**
 * One rule for what an environment may be called: the overlay file names, `--env`, the agent tools' input and
 * the environments file all take the names ENVIRONMENT_NAME takes. The file's schema repeats the rule as a
 * pattern, so this holds the two equal and checks every place on the same names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENVIRONMENT_NAME, environmentOfFile } from '../../../core/endpointSpec/overlay';
import { parseEnvironments } from '../../../core/environments/config';
import { ENVIRONMENT_NAME as OPERATIONS_ENVIRONMENT_NAME } from '../../../core/operations';
import environmentsSchema from '../../../schemas/environments.schema.json';

const NAMES = ['prod', 'Prod', 'eu-staging', 'qa_2', '7', 'a-', '-a', '_a', 'a.b', 'a b', 'é', ''];

describe('environment names', () => {
  it('are one rule, which the environments schema repeats as its pattern', () => {
    assert.equal(environmentsSchema.properties.environments.propertyNames.pattern, ENVIRONMENT_NAME.source);
    assert.equal(ENVIRONMENT_NAME.flags, '', 'a flag would make the pattern mean something else in the schema');
    assert.equal(OPERATIONS_ENVIRONMENT_NAME, ENVIRONMENT_NAME);
  });

  it('are taken alike from an overlay file name and from the environments file', () => {
    const accepted = NAMES.filter((name) => ENVIRONMENT_NAME.test(name));
    assert.deepEqual(accepted, ['prod', 'Prod', 'eu-staging', 'qa_2', '7', 'a-']);
    for (const name of NAMES) {
      const wanted = ENVIRONMENT_NAME.test(name);
      assert.equal(environmentOfFile(`worker.${name}.endpoint.yaml`) === name, wanted, `file name with ${JSON.stringify(name)}`);
      const file = parseEnvironments(`environments:\n  ${JSON.stringify(name)}: { protected: true }\n`);
      assert.equal(file.problems.length === 0, wanted, `environments file with ${JSON.stringify(name)}`);
    }
  });
});
