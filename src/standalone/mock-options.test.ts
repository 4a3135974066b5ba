import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeMockOptions, resolveMockOptions, worldFile } from './mock-options.js';
import { ProblemList } from './problems.js';
import { MOCK_DEFAULTS, type MockConfig, type MockFlags } from './setting-forms.js';
import { readWorldFile } from './world-file.js';
import { parseVariants } from './variant-values.js';

const file = (config: MockConfig, path = 'conf/mock.json') => ({ path, config });

describe('mergeMockOptions: flag (or environment) > config file > default, key by key', () => {
  it('takes the defaults when nothing is given', () => {
    expect(mergeMockOptions({}, undefined)).toEqual({
      port: 8080,
      host: '127.0.0.1',
      gameOrigins: [],
      trustProxy: false,
      control: true,
      controlPublic: false,
      freezeClock: false,
      logFormat: 'text',
      verbose: false,
      botCheck: { mode: 'off' },
      maxWrongOtpAttempts: MOCK_DEFAULTS.maxWrongOtpAttempts,
      routes: [],
      strictAnswers: false,
      variants: [],
      workers: 1,
    });
  });

  it('takes a Redis URL and prefix for --workers above 1, and refuses an URL that is none or a state file beside it', () => {
    expect(mergeMockOptions({ store: 'redis://127.0.0.1:6379/2', workers: 4 }, undefined)).toMatchObject({
      store: 'redis://127.0.0.1:6379/2',
      storePrefix: 'game-service:',
      workers: 4,
    });
    expect(mergeMockOptions({}, { path: 'mock.json', config: { store: 'redis://cache:6379', storePrefix: 'studio:' } })).toMatchObject({
      store: 'redis://cache:6379',
      storePrefix: 'studio:',
    });
    expect(() => mergeMockOptions({ store: 'http://127.0.0.1:6379' }, undefined)).toThrow(
      /^--store "http:\/\/127.0.0.1:6379" is not a Redis URL; expected redis:\/\/HOST:PORT\[\/DB\]/,
    );
    expect(() => mergeMockOptions({ store: 'redis://127.0.0.1:6379/zero' }, undefined)).toThrow(/is not a Redis URL/);
    expect(() => mergeMockOptions({ store: 'redis://127.0.0.1:6379', state: 'mock.db' }, undefined)).toThrow(/--state and --store exclude each other/);
  });

  it('takes a relative state file of the config file from its directory, and refuses --workers above 1 on it', () => {
    expect(mergeMockOptions({}, { path: 'conf/mock.json', config: { state: 'mock.db' } }).state).toBe('conf/mock.db');
    expect(mergeMockOptions({ state: 'other.db' }, { path: 'conf/mock.json', config: { state: 'mock.db' } }).state).toBe('other.db');
    expect(() => mergeMockOptions({}, { path: 'conf/mock.json', config: { state: 'mock.db', workers: 2 } })).toThrow(/a state file belongs to one process/);
  });

  it('takes variants from --variant over the file, and refuses a name that is none, naming where it came from', () => {
    expect(mergeMockOptions({ variant: ['wrong-code-401'] }, file({ variant: 'all' })).variants).toEqual(['wrong-code-401']);
    expect(mergeMockOptions({}, file({ variant: 'public-deployment,random:3' })).variants).toEqual(['public-deployment', 'random:3']);
    // A flag's value comes parsed: --variant's parser refuses a name that is none.
    expect(() => parseVariants(['wrong-code-499'])).toThrow(/^--variant: unknown variant "wrong-code-499"/);
    expect(() => mergeMockOptions({}, file({ variant: ['reset-epoch-milliseconds', 'reset-seconds-remaining'] }))).toThrow(
      /\/variant: reset-epoch-milliseconds and reset-seconds-remaining are two sides of one choice/,
    );
  });

  it('prefers the file to the default, and a flag to the file, for each key on its own', () => {
    const config: MockConfig = { port: 9000, host: '::', control: false, verbose: true, maxWrongOtpAttempts: 0, gameOrigin: 'http://a.test,http://b.test/' };
    const flags: MockFlags = { port: 0, control: true, freezeClock: true };
    expect(mergeMockOptions(flags, file(config))).toMatchObject({
      port: 0,
      host: '::',
      control: true,
      verbose: true,
      freezeClock: true,
      maxWrongOtpAttempts: 0,
      gameOrigins: ['http://a.test', 'http://b.test'],
    });
    // false and 0 given as flags are values, not absences.
    expect(mergeMockOptions({ verbose: false, port: 0 }, file({ verbose: true, port: 9000 }))).toMatchObject({ verbose: false, port: 0 });
    expect(mergeMockOptions({ gameOrigin: [] }, file({ gameOrigin: ['http://a.test'] })).gameOrigins).toEqual([]);
  });

  it('treats null in the file as left out', () => {
    expect(mergeMockOptions({}, file({ port: null, verbose: null } as unknown as MockConfig))).toMatchObject({ port: 8080, verbose: false });
  });

  it('takes action points, costs, routes and the journal size from the file only', () => {
    const merged = mergeMockOptions(
      {},
      file({
        actionPoints: { start: 2, max: 5, costs: { 'POST /api/mine': 3, createShip: 1 } },
        routes: [{ method: 'POST', path: '/api/mine', encounter: 'start' }],
        journalSize: 10,
      }),
    );
    expect(merged).toMatchObject({
      actionPoints: { start: 2, max: 5 },
      actionCosts: { 'POST /api/mine': 3, createShip: 1 },
      routes: [{ method: 'POST', path: '/api/mine', encounter: 'start' }],
      journalSize: 10,
    });
  });

  it('names every bad origin of the file, and a bad store URL, by its key', () => {
    expect(() => mergeMockOptions({}, file({ gameOrigin: ['http://a.test', 'a.test', 'http://b.test/x'] }))).toThrow(
      /^2 problems in the configuration:\n {2}- --config conf\/mock.json: \/gameOrigin "a.test" is not an origin; .*\n {2}- --config conf\/mock.json: \/gameOrigin "http:\/\/b.test\/x" is not an origin/,
    );
    expect(() => mergeMockOptions({}, file({ store: 'http://cache:6379' }))).toThrow(
      /^--config conf\/mock.json: \/store "http:\/\/cache:6379" is not a Redis URL/,
    );
  });

  it('refuses every cost of a route that does not exist and every repeated route at once, priced routes still known', () => {
    const twice = { method: 'POST', path: '/api/mine' } as const;
    const costs = { 'POST /api/mine': 1, 'POST /api/dig': 1, 'POST /api/fly': 1 };
    expect(() => mergeMockOptions({}, file({ routes: [twice, twice], actionPoints: { start: 9, max: 5, costs } }))).toThrow(
      [
        '4 problems in the configuration:',
        '  - --config conf/mock.json: /routes/1 repeats POST /api/mine',
        '  - --config conf/mock.json: /actionPoints/start must be <= max (5)',
        '  - --config conf/mock.json: /actionPoints/costs/POST ~1api~1dig is not a gameplay route; expected one of: createShip, POST /api/mine',
        '  - --config conf/mock.json: /actionPoints/costs/POST ~1api~1fly is not a gameplay route; expected one of: createShip, POST /api/mine',
      ].join('\n'),
    );
  });

  it('refuses costs of routes that do not exist, repeated routes, and a start above the maximum', () => {
    expect(() => mergeMockOptions({}, file({ actionPoints: { costs: { 'POST /api/mine': 1 } } }))).toThrow(
      '--config conf/mock.json: /actionPoints/costs/POST ~1api~1mine is not a gameplay route; expected one of: createShip',
    );
    const twice = { method: 'POST', path: '/api/mine' } as const;
    expect(() => mergeMockOptions({}, file({ routes: [twice, twice] }))).toThrow('--config conf/mock.json: /routes/1 repeats POST /api/mine');
    expect(() => mergeMockOptions({}, file({ actionPoints: { start: 61 } }))).toThrow('/actionPoints/start must be <= max (60)');
  });

  it('resolves a world named in the file against the file, and one named by flag against the working directory', () => {
    const inFile = join('conf', 'worlds', 'a.json');
    expect(worldFile({}, file({ world: 'worlds/a.json' }))).toEqual({ path: inFile, subject: `world ${inFile} in --config conf/mock.json` });
    expect(worldFile({}, file({ world: '/abs/a.json' }))?.path).toBe('/abs/a.json');
    expect(worldFile({ world: 'b.json' }, file({ world: 'worlds/a.json' }))).toEqual({ path: 'b.json', subject: '--world b.json' });
    expect(worldFile({}, undefined)).toBeUndefined();
  });

  it('lets a bot-check token imply mode tokens, over the file', () => {
    expect(mergeMockOptions({ botCheckToken: ['t1'] }, file({ botCheck: { mode: 'always-fail' } })).botCheck).toEqual({ mode: 'tokens', tokens: ['t1'] });
    expect(mergeMockOptions({ botCheck: 'tokens' }, file({ botCheck: { mode: 'tokens', tokens: ['f1'] } })).botCheck).toEqual({
      mode: 'tokens',
      tokens: ['f1'],
    });
    expect(mergeMockOptions({ botCheck: 'always-pass' }, file({ botCheck: { mode: 'tokens', tokens: ['f1'] } })).botCheck).toEqual({ mode: 'always-pass' });
    expect(() => mergeMockOptions({ botCheck: 'tokens' }, undefined)).toThrow('--bot-check tokens needs at least one --bot-check-token');
    expect(() => mergeMockOptions({ botCheck: 'off', botCheckToken: ['t'] }, undefined)).toThrow('--bot-check-token is only read with --bot-check tokens');
  });
});

describe('world and config files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'game-service-options-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };

  /** The problems of a world file, as reported; '' for none. */
  const worldProblems = (path: string, maxActionPoints = 60) => {
    const problems = new ProblemList();
    readWorldFile({ path, subject: `--world ${path}` }, maxActionPoints, problems);
    try {
      problems.throwIfAny();
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('reads a world and names the offending path of a bad one', () => {
    const ok = write('ok.json', { players: [{ email: 'a@example.com' }] });
    expect(readWorldFile({ path: ok, subject: `--world ${ok}` }, 60, new ProblemList())).toEqual({ players: [{ email: 'a@example.com' }] });
    const bad = write('bad.json', { players: [{ email: 'a@example.com', actionPoints: -1 }] });
    expect(worldProblems(bad)).toBe(`--world ${bad}: /players/0/actionPoints must be >= 0`);
    const broken = write('broken.json', '{');
    expect(worldProblems(broken)).toMatch(`--world ${broken} is not valid JSON`);
    expect(worldProblems(join(dir, 'none.json'))).toMatch('cannot be read');
  });

  it("names every problem of a world at once: schema, points above the maximum, a repeated address or token, a field of the mock's own", () => {
    const token = '0b9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a00';
    const world = write('flawed.json', {
      players: [
        { email: 'a@example.com', token },
        { email: ' A@Example.com ', actionPoints: 7, rank: 1, createdAt: 'yesterday' },
        { email: 'b@example.com', token: token.toUpperCase(), inEncounter: 'no', ship: { id: 3 } },
      ],
    });
    expect(worldProblems(world, 5).split('\n')).toEqual([
      '6 problems in the configuration:',
      `  - --world ${world}: /players/2/inEncounter must be boolean`,
      `  - --world ${world}: /players/1/actionPoints must be <= 5 (actionPoints.max)`,
      `  - --world ${world}: /players/1/email repeats a@example.com of /players/0/email`,
      `  - --world ${world}: /players/2/token repeats ${token} of /players/0/token`,
      `  - --world ${world}: /players/1 names createdAt: the player's id, email, emailVerified, createdAt, actionPoints, maxActionPoints, ship are fields the mock keeps from its own state; give yours other names`,
      `  - --world ${world}: /players/2/ship names id: the ship's id, name, createdAt are fields the mock sets (name from the creation body or a world); give yours other names`,
    ]);
  });

  it('loads the world a config file names, relative to that file', async () => {
    write('w.json', { players: [{ email: 'a@example.com' }, { email: 'b@example.com' }] });
    const config = write('c.json', { world: 'w.json', port: 0 });
    expect(await resolveMockOptions({ config })).toMatchObject({ port: 0, worldSource: join(dir, 'w.json'), world: { players: [{}, {}] } });
  });
});
