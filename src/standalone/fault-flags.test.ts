import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { parseConfig } from './config-file.js';
import { configFaults, parseFaultFlags, parseFaultSeed } from './fault-flags.js';
import { mergeMockOptions } from './mock-options.js';
import { ProblemList } from './problems.js';

/** A config as read, which must be without problems. */
const config = (value: unknown) => {
  const problems = new ProblemList();
  const read = parseConfig(value, '--config m.json', problems);
  problems.throwIfAny();
  return read;
};

const usageError = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof CliError) return `${error.code} ${error.message}`;
    throw error;
  }
  throw new Error('expected a CliError');
};

describe('--fault, --fault-seed and the config keys faults and faultSeed', () => {
  it('reads repeated flags and comma-separated environment values as rules', () => {
    expect(parseFaultFlags(['GET /api/player 503@0.2', '/api/* latency:100-500,* * reset@1%']).map((rule) => rule.kind)).toEqual([
      'status',
      'latency',
      'reset',
    ]);
  });

  it('refuses a bad flag value as a usage error naming the flag and the syntax', () => {
    expect(usageError(() => parseFaultFlags(['GET /api/player 418']))).toMatch(
      /^GS_USAGE --fault "GET \/api\/player 418" is not \[METHOD\] PATH EFFECT\[@PROBABILITY\], EFFECT one of 500, 502/,
    );
    expect(usageError(() => parseFaultSeed('-3'))).toBe('GS_USAGE --fault-seed "-3" is not a seed; expected an integer from 0 to 4294967295');
    expect(parseFaultSeed('4294967295')).toBe(4_294_967_295);
  });

  it.each([
    ['GET /health 503@150%', 'probability 150% is above 100%'],
    ['GET /health 503@-5%', 'probability -5% is below 0%'],
    ['/api/* reset@1.5', 'probability 1.5 is above 1 (a fraction such as 0.2, or a percentage such as 20%)'],
  ])('says why the probability of %s is out of range in the terms it was written in', (text, why) => {
    expect(usageError(() => parseFaultFlags([text]))).toBe(`GS_USAGE --fault ${JSON.stringify(text)}: ${why}`);
    expect(usageError(() => configFaults('m.json', [text]))).toBe(`GS_CONFIG --config m.json: /faults/0: ${why}`);
  });

  it('reads the file as texts or JSON rules, each error naming its JSON path', () => {
    const file = { path: 'm.json', config: config({ faults: ['GET /health 503', { kind: 'latency', ms: 20 }], faultSeed: 9 }) };
    expect(mergeMockOptions({}, file)).toMatchObject({ faults: [{ kind: 'status' }, { kind: 'latency', minMs: 20 }], faultSeed: 9 });
    // A flag outranks the file, key by key.
    expect(mergeMockOptions({ fault: parseFaultFlags('* * 500'), faultSeed: 1 }, file)).toMatchObject({ faults: [{ status: 500 }], faultSeed: 1 });
    expect(usageError(() => configFaults('m.json', [{ kind: 'status' }]))).toBe(
      'GS_CONFIG --config m.json: /faults/0: a status fault names its status, one of 500, 502, 503, 504',
    );
    expect(usageError(() => configFaults('m.json', ['* * 503', 'nonsense']))).toMatch(/^GS_CONFIG --config m.json: \/faults\/1 is not \[METHOD\]/);
    expect(usageError(() => config({ faultSeed: 2 ** 32 }))).toBe('GS_CONFIG --config m.json: /faultSeed must be <= 4294967295');
  });

  it('names every bad rule of the file at once', () => {
    const message = usageError(() => configFaults('m.json', ['nonsense', '* * 503', { kind: 'status' }]));
    expect(message).toMatch(/^GS_CONFIG 2 problems in the configuration:\n {2}- --config m.json: \/faults\/0 is not \[METHOD\]/);
    expect(message).toContain('\n  - --config m.json: /faults/2: a status fault names its status');
  });
});
