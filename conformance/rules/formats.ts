import { OTP_LENGTH } from '../../src/spec/limits.js';
import { healthResponseSchema } from '../../src/spec/schemas.js';

/** The spec's formats, as the suite and the proxy read them. */

/** "Bearer token, UUID format." */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "ISO 8601 UTC timestamp": Z or +00:00. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/;

/** "OTP length 6 digits." */
export const SIX_DIGITS = new RegExp(`^\\d{${OTP_LENGTH}}$`);

/** "Service version, dotted numeric form <major>.<minor>.<patch>", as the Health response's schema writes it. */
export const DOTTED_VERSION = new RegExp(healthResponseSchema.properties.version.pattern);
