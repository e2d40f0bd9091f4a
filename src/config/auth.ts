/**
 * @module config/auth
 * The AUTH_* variables (config/schema's `auth`): the identity provider, named by an issuer and exactly
 * one source of its public keys, or none (local mode: `breakline token mint`). Verification never
 * calls the provider per request (src/auth/session-keys).
 */
import { z } from 'zod';
import { jwksUrl, list, origins, variable } from './fields';

/** Where an identity provider's public keys come from. */
export type ProviderKeys = { source: 'jwks-url'; url: string } | { source: 'jwks-file'; path: string } | { source: 'pem'; pem: string };

const KEY_VARIABLES = { 'jwks-url': 'AUTH_JWKS_URL', 'jwks-file': 'AUTH_JWKS_FILE', pem: 'AUTH_PUBLIC_KEY' } as const;

export const authGroup = z
  .object({
    issuer: variable('AUTH_ISSUER', z.string().min(1).optional(), {
      doc: "your identity provider's issuer, the required `iss` of session tokens; set with one key source below. Unset → local mode",
    }),
    jwksUrl: variable('AUTH_JWKS_URL', jwksUrl.optional(), {
      doc: "the provider's JWKS (`https://`; `http://` only on loopback): fetched at boot, every 10 min, and on an unknown `kid` at most every 30 s — never per request",
    }),
    jwksFile: variable('AUTH_JWKS_FILE', z.string().min(1).optional(), { doc: 'a JWKS file instead' }),
    publicKey: variable(
      'AUTH_PUBLIC_KEY',
      z
        .string()
        .transform((pem) => pem.replaceAll('\\n', '\n').trim())
        .refine((pem) => /^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(pem), 'must be a PEM public key (-----BEGIN PUBLIC KEY-----)')
        .optional(),
      { doc: 'a PEM public key instead (RSA → RS256, P-256 → ES256; `\\n` escapes allowed)' },
    ),
    audience: variable('AUTH_AUDIENCE', list.optional(), { doc: 'comma-separated accepted `aud` values; unset → `aud` not checked' }),
    authorizedParties: variable('AUTH_AUTHORIZED_PARTIES', list.optional(), {
      doc: "comma-separated accepted `azp` values (Clerk: your front ends' origins); set → `azp` required",
    }),
    /** The session-token claim that carries the tier (absent or unknown → free). */
    tierClaim: variable('AUTH_TIER_CLAIM', z.string().min(1), {
      default: 'tier',
      doc: 'session-token claim holding the tier (`free`, `pro`, `enterprise`; absent or other → `free`)',
    }),
    /** Local mode's signing key file (auth/local-key); src/config puts it under STATE_DIR when unset. */
    localKeyFile: variable('AUTH_LOCAL_KEY_FILE', z.string().min(1).optional(), {
      shownDefault: 'STATE_DIR/auth/session-key.json',
      doc: "local mode's session signing key (a private JWK, mode 0600); the same file on every instance shares sessions among them ([local mode](docs/operations.md#local-mode-minting-a-session))",
    }),
    /** Origins besides the server's own that may send cookie-authenticated writes (CSRF rule). */
    allowedOrigins: variable('AUTH_ALLOWED_ORIGINS', origins.optional().transform((list) => list ?? []), {
      doc: "comma-separated origins besides the server's own that may send cookie-authenticated writes (CSRF rule)",
    }),
  })
  .transform(({ issuer, jwksUrl, jwksFile, publicKey, audience, authorizedParties, ...rest }, ctx) => {
    const sources: ProviderKeys[] = [];
    if (jwksUrl) sources.push({ source: 'jwks-url', url: jwksUrl });
    if (jwksFile) sources.push({ source: 'jwks-file', path: jwksFile });
    if (publicKey) sources.push({ source: 'pem', pem: publicKey });
    const [keys] = sources;
    if (sources.length > 1) ctx.addIssue({ code: 'custom', message: "AUTH_JWKS_URL, AUTH_JWKS_FILE, AUTH_PUBLIC_KEY: set exactly one source of the provider's keys" });
    else if (!keys && issuer) ctx.addIssue({ code: 'custom', path: ['issuer'], message: "needs the provider's keys (AUTH_JWKS_URL, AUTH_JWKS_FILE or AUTH_PUBLIC_KEY)" });
    else if (keys && !issuer) ctx.addIssue({ code: 'custom', path: ['issuer'], message: `required with ${KEY_VARIABLES[keys.source]} (the provider's iss, e.g. https://clerk.your-app.com)` });
    /** Null → local mode: only tokens minted by `breakline token mint` with the local key are trusted. */
    const provider = keys && issuer ? { issuer, keys, audience: audience ?? [], authorizedParties: authorizedParties ?? [] } : null;
    return { provider, ...rest };
  });
