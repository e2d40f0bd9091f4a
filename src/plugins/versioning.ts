/**
 * @module plugins/versioning
 * The `API-Version` request header selects the contract (`1.0.0` | `1.1.0`,
 * default from config) and is echoed on every response. An unknown or blank
 * version is 400. Handlers read the effective version as `apiVersion`.
 */
import { Elysia } from 'elysia';
import { API_VERSIONS, type ApiVersion } from '../config';
import { AppError, echoed } from '../errors';

export const API_VERSION_HEADER = 'api-version';

export function versioning(defaultVersion: ApiVersion) {
  return new Elysia({ name: 'breakline/versioning' })
    .onRequest(({ request, set }) => {
      // A header that is present must name a version: a blank one is as wrong as '9.9.9'.
      const asked = request.headers.get(API_VERSION_HEADER)?.trim();
      if (asked !== undefined && !(API_VERSIONS as readonly string[]).includes(asked)) {
        set.headers[API_VERSION_HEADER] = defaultVersion;
        throw new AppError('invalid_parameter', `Unsupported API-Version '${echoed(asked)}'; supported: ${API_VERSIONS.join(', ')}`);
      }
      set.headers[API_VERSION_HEADER] = asked || defaultVersion;
    })
    .resolve({ as: 'global' }, ({ set }) => ({ apiVersion: set.headers[API_VERSION_HEADER] as ApiVersion }));
}
