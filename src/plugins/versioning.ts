/**
 * @module plugins/versioning
 * The `API-Version` request header selects the contract (`1.0.0` | `1.1.0`,
 * default from config) and is echoed on every response. An unknown or blank
 * version is 400. Handlers read the effective version as `apiVersion`.
 */
import { Elysia } from 'elysia';
import { API_VERSIONS, type ApiVersion } from '../config';
import { AppError, echoed } from '../errors';
import { API_VERSION_HEADER, asHook, versionOf, type RequestStep } from './step';

/** The step (plugins/step): the version answered in `API-Version` (the default when the header names none we serve), a 400 when the header names another. */
export function versionStep(defaultVersion: ApiVersion): RequestStep {
  return (request, _server, set) => {
    // A header that is present must name a version: a blank one is as wrong as '9.9.9'.
    const version = versionOf(request, defaultVersion);
    set.headers[API_VERSION_HEADER] = version ?? defaultVersion;
    if (version === null) {
      const asked = request.headers.get(API_VERSION_HEADER)!.trim();
      throw new AppError('invalid_parameter', `Unsupported API-Version '${echoed(asked)}'; supported: ${API_VERSIONS.join(', ')}`);
    }
  };
}

/** The step and the plugin that registers it; the plugin also gives handlers the effective version as `apiVersion`. */
export function versioningStage(defaultVersion: ApiVersion) {
  const step = versionStep(defaultVersion);
  const plugin = new Elysia({ name: 'breakline/versioning' })
    .onRequest(asHook(step))
    .resolve({ as: 'global' }, ({ set }) => ({ apiVersion: set.headers[API_VERSION_HEADER] as ApiVersion }));
  return { step, plugin };
}

export function versioning(defaultVersion: ApiVersion) {
  return versioningStage(defaultVersion).plugin;
}
