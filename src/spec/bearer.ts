/**
 * "Authorization: Bearer <AUTH_TOKEN>": the scheme's name in any case (as HTTP reads it), spaces before the token,
 * the token captured. The mock authenticates by it and the proxy judges clients by it.
 */
export const BEARER_AUTHORIZATION = /^Bearer +(\S+) *$/i;
