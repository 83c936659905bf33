/**
 * The API client of the commands that talk to the service (plan, deploy, pull, billing), built the same way for
 * each from the environment: $ENDPOINT_STUDIO_API_URL with the key in $ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY),
 * or for an environment's overlay in that environment's key variable ($ENDPOINT_STUDIO_API_KEY_PROD).
 */
import { configFromEnvironment, createApiClient, type ApiClient, type Environment, type RetryNotice } from '../core/api';
import type { DeployEnvironment } from '../core/operations';
import type { CliIo } from './inputs';

export interface ServiceIo extends CliIo {
  /** Defaults to `process.env`. */
  env?: Environment;
}

/**
 * The client, or exit status 2 after saying why there is none (no key, a bad URL). An environment's client
 * takes its key from the environment's own variable only (`keyVariable`), so a missing production key is
 * an error naming that variable, never a deploy on the default key.
 */
export function serviceClient(
  command: string,
  io: ServiceIo,
  options: { announceRateLimits?: boolean; environment?: Pick<DeployEnvironment, 'name' | 'keyVariable'> } = {},
): ApiClient | 2 {
  const { environment } = options;
  const config = configFromEnvironment(io.env ?? process.env, environment ? { keyVariable: environment.keyVariable } : {});
  if (!config.apiKey) {
    io.err(
      environment
        ? `endpoint-studio ${command}: no API key for the ${environment.name} environment: set ${environment.keyVariable} (an environment's key is read from its own variable only)`
        : `endpoint-studio ${command}: no API key: set ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY)`,
    );
    return 2;
  }
  try {
    return createApiClient({
      ...config,
      userAgent: 'endpoint-studio-cli',
      onRetry: options.announceRateLimits ? announceRateLimitWaits(command, io) : undefined,
    });
  } catch (error) {
    io.err(`endpoint-studio ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

/** A wait the service asked for (429) is said, so a pause never looks like a hang. */
function announceRateLimitWaits(command: string, io: CliIo): (notice: RetryNotice) => void {
  return (notice) => {
    if (notice.reason !== 'rateLimited') return;
    io.err(`endpoint-studio ${command}: rate limited on ${notice.method} ${notice.path}; retrying in ${Math.ceil(notice.waitMs / 1000)}s`);
  };
}
