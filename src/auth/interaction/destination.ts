/**
 * Where an authorization sends the browser back, in words a person can check on the consent
 * page. A dynamically registered client names itself, so its name alone proves nothing ("Feedback
 * board" can be anyone's); the redirect URI's host is what the code is actually sent to, and is
 * what the page puts before the person (as GitHub's and Google's consent screens do).
 */
import { LOOPBACK_HOSTS } from '../registration-policy.js';

export function destinationOf(redirectUri: unknown): string | null {
  if (typeof redirectUri !== 'string' || !URL.canParse(redirectUri)) return null;
  const url = new URL(redirectUri);
  if (url.protocol === 'https:') return url.host;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) {
    return `an app on this device (${url.host})`;
  }
  // a private-use scheme (RFC 8252 §7.1): the installed app that claimed that scheme
  return `the app that opens ${url.protocol.slice(0, -1)}: links`;
}
