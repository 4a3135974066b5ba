/** The package's version, which /health reports in every host; `npm version` rewrites it (scripts/write-version.js). */
export const PACKAGE_VERSION = '0.1.0';
