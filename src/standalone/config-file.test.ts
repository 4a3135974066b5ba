import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig, readConfigFile } from './config-file.js';
import { ProblemList } from './problems.js';

const SOURCE = '--config mock.json';

/** Every problem noted, one message; throws where there were none. */
function message(value: unknown, read: (problems: ProblemList) => unknown = (problems) => parseConfig(value, SOURCE, problems)): string {
  const problems = new ProblemList();
  read(problems);
  try {
    problems.throwIfAny();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
}

/** The config as read, which must be without problems. */
function accepted(value: unknown) {
  const problems = new ProblemList();
  const config = parseConfig(value, SOURCE, problems);
  problems.throwIfAny();
  return config;
}

describe('config file validation', () => {
  it('accepts every key, nested ones included', () => {
    const config = {
      $schema: './config.schema.json',
      port: 0,
      host: '::',
      gameOrigin: ['http://localhost:5173'],
      trustProxy: true,
      control: false,
      controlPublic: true,
      freezeClock: true,
      world: 'worlds/demo.json',
      logFormat: 'json',
      verbose: true,
      botCheck: { mode: 'tokens', tokens: ['pass'] },
      maxWrongOtpAttempts: 0,
      actionPoints: { start: 3, max: 10, refillIntervalMs: 1_000, costs: { createShip: 2, 'POST /api/mine': 1 } },
      routes: [{ method: 'POST', path: '/api/mine', cost: 1, response: { ore: 3 }, encounter: 'start' }],
      journalSize: 50,
    };
    expect(accepted(config)).toEqual(config);
  });

  it.each([
    [{ actionPoints: { max: 0 } }, '/actionPoints/max must be >= 1'],
    [{ port: 70_000 }, '/port must be <= 65535'],
    [{ port: '8080' }, '/port must be integer'],
    [{ routes: [{ method: 'POST', path: '/api/mine', cost: -1 }] }, '/routes/0/cost must be >= 0'],
    [{ routes: [{ method: 'HEAD', path: '/api/mine' }] }, '/routes/0/method must be equal to one of the allowed values: GET, POST, PUT, PATCH, DELETE'],
    [
      { routes: [{ method: 'GET', path: '/api/mine', category: 'admin' }] },
      '/routes/0/category must be equal to one of the allowed values: gameplay, read, public',
    ],
    [{ routes: [{ method: 'GET', path: '/api/mine', status: 2.5 }] }, '/routes/0/status'],
    [{ routes: [{ method: 'POST' }] }, "/routes/0 must have required property 'path'"],
    [{ actionPoints: { costs: { createShip: 1.5 } } }, '/actionPoints/costs/createShip must be integer'],
    [{ botCheck: { mode: 'tokens' } }, "/botCheck must have required property 'tokens'"],
    [{ botCheck: { mode: 'tokens', tokens: [] } }, '/botCheck/tokens must NOT have fewer than 1 items'],
    [{ logFormat: 'xml' }, '/logFormat must be equal to one of the allowed values: text, json'],
    [{ logFormat: 'jsno' }, '/logFormat must be equal to one of the allowed values: text, json; did you mean json?'],
    [{ journalSize: 1e9 }, '/journalSize must be <= 100000'],
    [{ gameOrigin: 5 }, '/gameOrigin must be string or array'],
    [{ gameOrigin: ['http://a.test', 5] }, '/gameOrigin/1 must be string'],
  ])('names the offending key: %j', (config, expected) => {
    expect(message(config)).toContain(`${SOURCE}: ${expected}`);
  });

  it('names an unknown key, nested or not, with the known ones or the camelCase spelling', () => {
    expect(message({ actionPoints: { maximum: 5 } })).toBe(`${SOURCE}: /actionPoints/maximum is not a known key (known: start, max, refillIntervalMs, costs)`);
    expect(message({ 'trust-proxy': true })).toBe(`${SOURCE}: /trust-proxy is not a known key; did you mean trustProxy?`);
    expect(message({ prot: 8080 })).toBe(`${SOURCE}: /prot is not a known key; did you mean port?`);
    expect(message({ actionPoints: { mx: 5 } })).toBe(`${SOURCE}: /actionPoints/mx is not a known key; did you mean max?`);
    expect(message({ routes: [{ method: 'POST', path: '/api/a', price: 1 }] })).toContain('/routes/0/price is not a known key');
  });

  it('reads on/off words for switches, as the environment does, and treats null as left out', () => {
    expect(accepted({ trustProxy: 'yes', verbose: '0', control: null })).toEqual({ trustProxy: true, verbose: false, control: null });
    expect(message({ freezeClock: 'maybe' })).toBe(`${SOURCE}: /freezeClock "maybe" is not on or off; expected true or false (or 1/0, yes/no, on/off)`);
  });

  it('names every problem at once, and keeps the valid keys for the checks that follow', () => {
    const config = { port: 70_000, logFormat: 'xml', host: '::', trustProxy: 'maybe', actionPoints: { max: 0, maximum: 3 }, gameOrigin: 5, colour: 'blue' };
    const problems = [
      '/trustProxy "maybe" is not on or off; expected true or false (or 1/0, yes/no, on/off)',
      '/colour is not a known key (known: $schema, port, host, ',
      '/port must be <= 65535',
      '/gameOrigin must be string or array',
      '/logFormat must be equal to one of the allowed values: text, json',
      '/actionPoints/maximum is not a known key (known: start, max, refillIntervalMs, costs)',
      '/actionPoints/max must be >= 1',
    ];
    const reported = message(config);
    expect(reported).toMatch(new RegExp(`^${problems.length} problems in the configuration:\n`));
    for (const problem of problems) expect(reported).toContain(`\n  - ${SOURCE}: ${problem}`);
    expect(parseConfig(config, SOURCE, new ProblemList())).toEqual({ host: '::' });
  });

  it('wants a JSON object', () => {
    expect(message([8080])).toBe(`${SOURCE} must hold a JSON object whose keys are the flags, e.g. {"port": 8080}`);
  });
});

describe('readConfigFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'game-service-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says which file cannot be read or parsed', () => {
    const missing = join(dir, 'missing.json');
    expect(message(missing, (problems) => readConfigFile(missing, problems))).toMatch(`cannot read --config ${missing}: ENOENT`);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"port": ');
    expect(message(broken, (problems) => readConfigFile(broken, problems))).toMatch(`--config ${broken} is not valid JSON`);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"actionPoints": {"max": 0}}');
    expect(message(bad, (problems) => readConfigFile(bad, problems))).toBe(`--config ${bad}: /actionPoints/max must be >= 1`);
  });
});
