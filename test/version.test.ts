import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createService } from '../src/core/service.js';
import { createFetchHandler } from '../src/hosts/fetch.js';
import { createMswMock } from '../src/hosts/msw.js';
import { PACKAGE_VERSION } from '../src/version.js';

const packageVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('the version /health reports', () => {
  it("is the package's, in src/version.ts (npm version rewrites it)", () => {
    expect(PACKAGE_VERSION).toBe(packageVersion);
  });

  it('is the same from the service, the fetch host and the msw handlers', async () => {
    const fromService = await createService({ onOtp: () => {} }).handle({ method: 'GET', path: '/health', headers: {}, ip: '127.0.0.1' });
    const fromFetch = await createFetchHandler(createService({ onOtp: () => {} }))(new Request('http://mock.test/health'), '127.0.0.1');
    const msw = setupServer(...createMswMock({ baseUrl: 'https://api.version.test', onOtp: () => {} }).handlers);
    msw.listen({ onUnhandledFrame: 'error' });
    try {
      const fromMsw = await fetch('https://api.version.test/health');
      const versions = [
        (fromService.body as { version: string }).version,
        ((await fromFetch.json()) as { version: string }).version,
        ((await fromMsw.json()) as { version: string }).version,
      ];
      expect(versions).toEqual([packageVersion, packageVersion, packageVersion]);
    } finally {
      msw.close();
    }
  });
});
