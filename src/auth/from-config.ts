/**
 * The parts of an authorization server's options that come straight from configuration and are
 * the same for every service: SMTP for sign-in codes and the optional upstream identity provider.
 */
import type { Config } from '../config/schema.js';
import type { SignInLimits, SmtpOptions, UpstreamIdpOptions } from './options.js';

/** SMTP_URL (smtp:// or smtps://, credentials in the URL) -> nodemailer options; unset = none. */
export function smtpFrom(config: Config): SmtpOptions | undefined {
  if (!config.SMTP_URL) return undefined;
  const url = new URL(config.SMTP_URL);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { user: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { pass: decodeURIComponent(url.password) } : {}),
    from: config.MAIL_FROM,
  };
}

/** The upstream OpenID provider offered on the sign-in page, when configured. */
export function upstreamFrom(config: Config): UpstreamIdpOptions | undefined {
  if (!config.UPSTREAM_OIDC_ISSUER || !config.UPSTREAM_OIDC_CLIENT_ID) return undefined;
  const issuer = config.UPSTREAM_OIDC_ISSUER;
  return {
    name: /accounts\.google\.com/.test(issuer) ? 'Google' : new URL(issuer).host,
    issuer,
    clientId: config.UPSTREAM_OIDC_CLIENT_ID,
    ...(config.UPSTREAM_OIDC_CLIENT_SECRET
      ? { clientSecret: config.UPSTREAM_OIDC_CLIENT_SECRET }
      : {}),
    allowInsecure: issuer.startsWith('http:'),
  };
}

const MINUTE = 60;

/** The sign-in throttles' figures (SIGNIN_*); the lockout doubles with each repeat. */
export function signInLimitsFrom(config: Config): SignInLimits {
  const maxSeconds = config.SIGNIN_LOCKOUT_MAX_HOURS * 60 * MINUTE;
  return {
    codesPerAddress: config.SIGNIN_CODES_PER_ADDRESS,
    codesPerIp: config.SIGNIN_CODES_PER_IP,
    codeWindowSeconds: config.SIGNIN_CODE_WINDOW_MINUTES * MINUTE,
    codesPerAddressPerDay: config.SIGNIN_CODES_PER_ADDRESS_PER_DAY,
    wrongCodesPerAddress: config.SIGNIN_WRONG_CODES_PER_ADDRESS,
    wrongCodesPerIp: config.SIGNIN_WRONG_CODES_PER_IP,
    wrongCodeWindowSeconds: config.SIGNIN_WRONG_CODE_WINDOW_MINUTES * MINUTE,
    lockout: {
      baseSeconds: Math.min(config.SIGNIN_LOCKOUT_MINUTES * MINUTE, maxSeconds),
      factor: 2,
      maxSeconds,
      forgetAfterSeconds: maxSeconds,
    },
  };
}
