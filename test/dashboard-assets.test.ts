import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASSETS_MODULE, dashboardAssetsModule } from '../dashboard/bundle.js';
import { ROOT } from './support/cli.js';

describe('the dashboard files the core serves', () => {
  it(`are those of dashboard/, bundled into ${ASSETS_MODULE}`, async () => {
    if (readFileSync(`${ROOT}${ASSETS_MODULE}`, 'utf8') !== (await dashboardAssetsModule())) {
      expect.fail(`${ASSETS_MODULE} differs from dashboard/: run \`npm run dashboard\` and commit the result`);
    }
  });
});
