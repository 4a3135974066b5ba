import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
// The one validator loaded, not the package's hundred: every command of the CLI loads this module.
import isEmail from 'validator/lib/isEmail.js';
import { ApiError } from './errors.js';

export const MAX_EMAIL_LENGTH = 254;

const disposableDomains = disposableEmailBlocklistSet();

/** Lower-cased, trimmed address, so that one mailbox is one player whatever the caller's casing. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** A domain is disposable when it, or any parent domain, is on the maintained list. */
export function isDisposableDomain(domain: string): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (disposableDomains.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/** Throws the 400 (or, for a disposable domain, the status `disposableStatus`) that explains why an address cannot be registered. */
export function assertRegistrableEmail(email: string, disposableStatus: number): void {
  if (!isEmail.default(email, { allow_display_name: false, require_tld: true, allow_ip_domain: false })) {
    throw new ApiError(400, 'email must be a valid email address');
  }
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (isDisposableDomain(domain)) {
    throw new ApiError(disposableStatus, 'Disposable email addresses are not accepted; use a permanent address');
  }
}
