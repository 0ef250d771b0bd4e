import { z } from 'zod';
import { type Config, configSchema } from './schema.js';

/**
 * Configuration could not be read or used; the message is one line naming every bad key (the
 * processes print it after `cannot start: `, the CLI after `error: `).
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** `invalid configuration: KEY: problem; KEY: problem`, the first problem of each key */
function invalid(problems: readonly string[]): ConfigError {
  return new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const firstPerKey = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      // the key, not `MCP_ALLOWED_ORIGINS.1`: a list's entry is no key an operator sets
      const key = String(issue.path[0] ?? '');
      if (!firstPerKey.has(key)) firstPerKey.set(key, `${key}: ${issue.message}`);
    }
    throw invalid([...firstPerKey.values()]);
  }
  const config = parsed.data;
  if (config.TRUSTED_ID_TOKEN_ISSUERS) {
    const issuers = z
      .array(z.object({ issuer: z.url(), jwksUrl: z.url(), audience: z.string().min(1) }))
      .safeParse(safeJson(config.TRUSTED_ID_TOKEN_ISSUERS));
    if (!issuers.success) {
      throw invalid([
        'TRUSTED_ID_TOKEN_ISSUERS: must be a JSON array of {issuer, jwksUrl, audience}',
      ]);
    }
  }
  if (Boolean(config.UPSTREAM_OIDC_ISSUER) !== Boolean(config.UPSTREAM_OIDC_CLIENT_ID)) {
    throw invalid(['UPSTREAM_OIDC_ISSUER and UPSTREAM_OIDC_CLIENT_ID go together']);
  }
  return config;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Markdown table of every key, from the schema's descriptions (for the README and the CLI). */
export function configTable(): string {
  const rows = Object.entries(configSchema.shape).map(([key, schema]) => {
    const described = schema as z.ZodType & { description?: string };
    const fallback = (schema as z.ZodType).safeParse(undefined);
    const def =
      fallback.success && fallback.data !== undefined ? `\`${String(fallback.data)}\`` : '—';
    return `| \`${key}\` | ${def} | ${described.description ?? ''} |`;
  });
  return ['| key | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
