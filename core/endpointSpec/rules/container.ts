import { decodeArgs, sameStrings, type DecodedArgs } from '../args';
import { CREATE_ONLY, BOTH_MODES, has, record, stringArray, type RuleFinding, type SpecRule } from './rule';

let lastDecoded: { args: string; decoded: DecodedArgs } | undefined;

/** Both args rules read the same decoding, and between two edits `args` rarely changes: the last one is kept. */
function decodedArgsOf(args: string): DecodedArgs {
  if (lastDecoded?.args !== args) lastDecoded = { args, decoded: decodeArgs(args) };
  return lastDecoded.decoded;
}

export const imageRequired: SpecRule = {
  code: 'image-required',
  severity: 'error',
  status: 422,
  modes: CREATE_ONLY,
  description: '`image` is required unless `templateId` names a template to take it from.',
  check(spec) {
    if (has(spec, 'templateId')) return [];
    if (!has(spec, 'image')) {
      return [
        {
          path: [],
          target: 'key',
          message: 'missing image: set image to a container image reference, or templateId to start from a template',
        },
      ];
    }
    if (typeof spec.image === 'string' && spec.image.trim() === '') {
      return [
        {
          path: ['image'],
          target: 'value',
          message: 'image is empty: set a container image reference, or templateId to start from a template',
        },
      ];
    }
    return [];
  },
};

export const argsJsonShape: SpecRule = {
  code: 'args-invalid',
  severity: 'error',
  status: 400,
  modes: BOTH_MODES,
  description: '`args` is a shell command line or a JSON object string with `entrypoint` and `cmd` arrays.',
  check(spec) {
    if (typeof spec.args !== 'string') return [];
    const decoded = decodedArgsOf(spec.args);
    return decoded.ok ? [] : [{ path: ['args'], target: 'value', message: decoded.reason }];
  },
};

export const argsMatchCommand: SpecRule = {
  code: 'args-mismatch',
  severity: 'error',
  status: 400,
  modes: BOTH_MODES,
  description: '`args` may be sent with `entrypoint`/`cmd` only when they describe the same command.',
  check(spec) {
    if (typeof spec.args !== 'string') return [];
    const decoded = decodedArgsOf(spec.args);
    if (!decoded.ok) return [];
    const findings: RuleFinding[] = [];
    const entrypoint = stringArray(spec.entrypoint);
    const cmd = stringArray(spec.cmd);
    const fromArgs = decoded.command;
    if (entrypoint && !sameStrings(entrypoint, fromArgs.entrypoint ?? [])) {
      findings.push({
        path: ['entrypoint'],
        target: 'value',
        message: `entrypoint differs from the one args describes (${JSON.stringify(fromArgs.entrypoint ?? [])}); keep args alone, or make them describe the same command`,
      });
    }
    if (cmd && !sameStrings(cmd, fromArgs.cmd)) {
      findings.push({
        path: ['cmd'],
        target: 'value',
        message: `cmd differs from the one args describes (${JSON.stringify(fromArgs.cmd)}); keep args alone, or make them describe the same command`,
      });
    }
    return findings;
  },
};

const PORT_PATTERN = /^(\d{1,5})\/([a-z]+)$/;

export const portFormat: SpecRule = {
  code: 'port-format',
  severity: 'error',
  status: 422,
  modes: BOTH_MODES,
  description: 'Each of `ports` is `<port>/<protocol>` with a port from 1 to 65535, such as `8000/http`.',
  check(spec) {
    if (!Array.isArray(spec.ports)) return [];
    return spec.ports.flatMap((entry: unknown, index): RuleFinding[] => {
      if (typeof entry !== 'string') return [];
      const match = PORT_PATTERN.exec(entry);
      if (match && Number(match[1]) >= 1 && Number(match[1]) <= 65535) return [];
      const message = match
        ? `a port number is from 1 to 65535; got: ${match[1]}`
        : `a port is written <port>/<protocol>, such as "8000/http" or "22/tcp"; got: ${JSON.stringify(entry)}`;
      return [{ path: ['ports', index], target: 'value', message }];
    });
  },
};

export const envValuesAreStrings: SpecRule = {
  code: 'env-value-not-string',
  severity: 'error',
  status: 422,
  modes: BOTH_MODES,
  description: '`env` values are strings; YAML reads `8080`, `true` or `null` unquoted as other types.',
  check(spec) {
    const env = record(spec.env);
    if (!env) return [];
    return Object.entries(env).flatMap(([key, value]): RuleFinding[] => {
      if (typeof value === 'string') return [];
      const reading =
        value === null
          ? 'an empty value as null'
          : typeof value === 'object'
            ? 'a nested structure'
            : `${scalarText(value)} as a ${typeof value}`;
      const fix =
        value === null
          ? 'write "" for an empty value'
          : typeof value === 'object'
            ? 'write it as one string'
            : `quote it: "${scalarText(value)}"`;
      return [{ path: ['env', key], target: 'value', message: `env values must be strings, and YAML reads ${reading}: ${fix}` }];
    });
  },
};

export const loadBalancerEnv: SpecRule = {
  code: 'load-balancer-env',
  severity: 'warning',
  modes: CREATE_ONLY,
  description: 'For `LOAD_BALANCER` endpoints, `PORT` and `PORT_HEALTH` are port numbers and `HEALTH_CHECK_PATH` starts with `/`.',
  check(spec) {
    const env = record(spec.env);
    if (spec.type !== 'LOAD_BALANCER' || !env) return [];
    const findings: RuleFinding[] = [];
    for (const key of ['PORT', 'PORT_HEALTH']) {
      const value = env[key];
      if (typeof value === 'string' && !(/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535)) {
        findings.push({
          path: ['env', key],
          target: 'value',
          message: `${key} is the port the worker listens on, a number from 1 to 65535; got: ${JSON.stringify(value)}`,
        });
      }
    }
    const path = env.HEALTH_CHECK_PATH;
    if (typeof path === 'string' && !path.startsWith('/')) {
      findings.push({
        path: ['env', 'HEALTH_CHECK_PATH'],
        target: 'value',
        message: `HEALTH_CHECK_PATH is a URL path and starts with "/"; got: ${JSON.stringify(path)}`,
      });
    }
    return findings;
  },
};

/** A number or boolean as YAML wrote it (`8080`, `true`); only those reach here from parsed text. */
function scalarText(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : typeof value;
}
