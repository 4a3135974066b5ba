import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../conformance/proxy/proxy-server.js';
import { recordRoutes, writeRecordedRoutes } from '../conformance/proxy/record-routes.js';
import type { RecordingResult } from '../conformance/contract/run-recording.js';
import { startMock, useCli } from './support/cli.js';
import { type DeploymentDrift, type DeploymentOptions, type RunningDeployment, startDeployment } from './support/deployment-server.js';
import { useTempDir } from './support/temp-dir.js';

/**
 * `check --recording`: a session of a client recorded through the proxy in front of the deployment-like server,
 * then checked against that server as it is (clean) and against releases of it that each changed one thing the
 * client reads (each reported once, on its route and pointer, and nothing else).
 */

const cli = useCli();
const temp = useTempDir('recording-contract');

type Json = Record<string, unknown>;

function clientOf(base: string) {
  return async (method: string, path: string, token?: string, json?: unknown) => {
    const headers: Record<string, string> = { 'accept-encoding': 'br, gzip', 'x-client-version': '2.4' };
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const answer = await fetch(`${base}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
    const text = await answer.text();
    return { status: answer.status, body: (text === '' ? {} : JSON.parse(text)) as Json };
  };
}

/** What the recorded client does: signs in, reads itself, makes a ship, reads it by id, looks at the galaxy, moves. */
async function playSession(base: string, deployment: RunningDeployment, beforeShip?: (email: string) => Promise<void>): Promise<void> {
  const call = clientOf(base);
  const email = 'pilot@example.com';
  await call('POST', '/api/auth/register', undefined, { email });
  const { authToken } = (await call('POST', '/api/auth/verify-email', undefined, { email, otp: deployment.codeFor(email) })).body as { authToken: string };
  await call('GET', '/api/player', authToken);
  expect((await call('GET', '/api/player/ship', authToken)).status).toBe(404);
  const payload = { galaxyId: 1, shipName: 'Nomad', classId: 'merchant' };
  if (beforeShip !== undefined) {
    expect((await call('POST', '/api/player/ship', authToken, payload)).status).toBe(403);
    await beforeShip(email);
  }
  const created = await call('POST', '/api/player/ship', authToken, payload);
  expect(created.status).toBe(200);
  const shipId = (created.body['ship'] as Json)['id'];
  expect((await call('GET', `/api/ships/${shipId}`, authToken)).status).toBe(200);
  await call('GET', '/api/galaxy/1/sectors', authToken);
  await call('GET', '/api/galaxy/1/sector?id=1', authToken);
  await call('POST', '/api/player/ship/move', authToken, { sectorId: 3 });
  await call('GET', '/api/galaxy/1/sector?id=3', authToken);
  await call('GET', '/api/player/ship', authToken);
}

const grantSlot = (deployment: RunningDeployment) => async (email: string) => {
  await fetch(`${deployment.url}/admin/ship-slots`, { method: 'POST', body: JSON.stringify({ email }) });
};

/** The session recorded through the proxy, written as `proxy --record` writes it; the deployment stays up. */
async function recorded(options: DeploymentOptions = {}): Promise<{ file: string; deployment: RunningDeployment; codes: string }> {
  const codes = join(temp(), `codes-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(codes, '');
  const deployment = await startDeployment({ ...options, codeLog: codes });
  const proxy = await startProxy({ target: new URL(deployment.url), port: 0, host: '127.0.0.1', gameOrigins: [], keepApiExchanges: true });
  try {
    await playSession(proxy.url, deployment, options.shipsNeedAnOperator === true ? grantSlot(deployment) : undefined);
  } finally {
    await proxy.close();
  }
  const file = join(temp(), 'rec.json');
  await writeRecordedRoutes(file, recordRoutes(proxy.apiExchanges).config);
  return { file, deployment, codes };
}

async function checkRecording(file: string, deployment: RunningDeployment, codes: string, more: string[] = []) {
  const report = join(temp(), `report-${Math.random().toString(36).slice(2)}.json`);
  const run = await cli.run(['check', '--base-url', deployment.url, '--recording', file, '--otp-source', `log:${codes}`, '--json', report, ...more]);
  return { run, result: JSON.parse(readFileSync(report, 'utf8')) as RecordingResult };
}

const driftsOf = (result: RecordingResult) => result.routes.flatMap((route) => route.drifts.map((drift) => ({ route: route.route, ...drift })));

describe('check --recording: the recording as the client’s contract', { timeout: 120_000 }, () => {
  it('records the session with its placeholders, and checks clean against the deployment it was recorded from', async () => {
    const { file, deployment, codes } = await recorded({ clientVersion: '2.4' });
    try {
      const session = (JSON.parse(readFileSync(file, 'utf8')) as { session: { method: string; path: string; follows?: Json }[] }).session;
      expect(session.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'GET /api/player',
        'GET /api/player/ship',
        'POST /api/player/ship',
        // The ship's id, as the run's own creation will answer it.
        'GET /api/ships/{{answer 2 /ship/id}}',
        'GET /api/galaxy/1/sectors',
        'GET /api/galaxy/1/sector?id=1',
        'POST /api/player/ship/move',
        'GET /api/galaxy/1/sector?id=3',
        'GET /api/player/ship',
      ]);
      expect(session[7]!.follows).toEqual({ '/sector/id': 'query.id | number' });

      // The same deployment: the run's player is another, with another id and another ship id; no finding. The
      // client's own header, which this deployment requires, is sent again.
      expect(session.every((request) => (request as { requestHeaders?: Json }).requestHeaders?.['x-client-version'] === '2.4')).toBe(true);
      const har = join(temp(), 'run.har');
      const { run, result } = await checkRecording(file, deployment, codes, ['--har', har]);
      const { log } = JSON.parse(readFileSync(har, 'utf8')) as { log: { pages: { title: string }[]; entries: unknown[] } };
      expect(log.pages.map(({ title }) => title).slice(0, 2)).toEqual(['request 1: GET /api/player', 'request 2: GET /api/player/ship']);
      expect(log.entries.length).toBeGreaterThanOrEqual(9);
      console.log(
        `clean run: ${result.sent} of ${result.requests} requests sent, ${result.routes.length} routes, ${driftsOf(result).length} drifts, exit ${run.code}`,
      );
      expect(run.stderr).toBe('');
      expect(driftsOf(result)).toEqual([]);
      expect(result.rules).toEqual([]);
      expect(result.sent).toBe(9);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^ {2}✓ GET \/api\/ships\/:shipId \(1 request\): as recorded$/m);
    } finally {
      await deployment.close();
    }
  });

  const DRIFTS: [DeploymentDrift, { route: string; where: string; recorded: string; now: string }][] = [
    ['sector-name-renamed', { route: 'GET /api/galaxy/:galaxyId/sector', where: '/sector/name', recorded: 'string', now: 'missing' }],
    ['ship-credits-as-string', { route: 'GET /api/player/ship', where: '/ship/credits', recorded: 'number', now: 'string' }],
    ['sectors-route-removed', { route: 'GET /api/galaxy/:galaxyId/sectors', where: 'status', recorded: '200', now: '404' }],
    ['move-answers-202', { route: 'POST /api/player/ship/move', where: 'status', recorded: '200', now: '202' }],
    ['sectors-items-without-name', { route: 'GET /api/galaxy/:galaxyId/sectors', where: '/sectors/*/name', recorded: 'string', now: 'missing' }],
  ];

  it.each(DRIFTS)('reports %s once, on its route and pointer, and nothing else', async (drift, expected) => {
    const { file, deployment: recordedFrom } = await recorded();
    await recordedFrom.close();
    const codesNow = join(temp(), 'codes-now.log');
    writeFileSync(codesNow, '');
    const release = await startDeployment({ drifts: [drift], codeLog: codesNow });
    try {
      const { run, result } = await checkRecording(file, release, codesNow, ['--junit', join(temp(), 'report.xml')]);
      expect(driftsOf(result)).toEqual([expected]);
      expect(result.rules).toEqual([]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`\n  ${expected.route} ${expected.where}: ${expected.recorded} → ${expected.now}\n`);
      const junit = readFileSync(join(temp(), 'report.xml'), 'utf8');
      expect(junit.match(/<failure /g)).toHaveLength(1);
      expect(junit).toContain(`name="${expected.route}"`);
    } finally {
      await release.close();
    }
  });
});

describe('check --recording: what is no drift, and the spec’s rules', { timeout: 120_000 }, () => {
  it('finds nothing where only values differ: other ids, other names', async () => {
    const { file, deployment: recordedFrom } = await recorded();
    await recordedFrom.close();
    const codes = join(temp(), 'codes-now.log');
    writeFileSync(codes, '');
    const other = await startDeployment({ otherValues: true, codeLog: codes });
    try {
      const { run, result } = await checkRecording(file, other, codes);
      expect(driftsOf(result)).toEqual([]);
      expect(result.sent).toBe(9);
      expect(run.code).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("judges the spec's own routes by its rules, as any check run does", async () => {
    const { file, deployment: recordedFrom } = await recorded();
    await recordedFrom.close();
    const codes = join(temp(), 'codes-now.log');
    writeFileSync(codes, '');
    const departing = await startDeployment({ departures: ['player-without-success'], codeLog: codes });
    try {
      const { run, result } = await checkRecording(file, departing, codes);
      // The answer lost `success`, a field the recording holds, and ENV-SUCCESS says it must be there.
      expect(driftsOf(result)).toEqual([{ route: 'GET /api/player', where: '/success', recorded: 'boolean', now: 'missing' }]);
      expect(result.rules.map(({ rule, route }) => `${rule} ${route}`)).toEqual(['ENV-SUCCESS GET /api/player']);
      expect(run.stdout).toContain("The spec's rules, on its own routes:\n  ENV-SUCCESS on GET /api/player: ");
      expect(run.code).toBe(1);
    } finally {
      await departing.close();
    }
  });
});

describe('check --recording: the mock that plays the recording, checked against it', { timeout: 120_000 }, () => {
  it("names where the mock's own answers differ from the deployment's, and nothing else", async () => {
    const { file, deployment } = await recorded();
    await deployment.close();
    const mock = await startMock(cli, ['--port', '0', '--config', file]);
    const report = join(temp(), 'mock-report.json');
    const run = await cli.run(['check', '--base-url', mock.url, '--recording', file, '--json', report]);
    const result = JSON.parse(readFileSync(report, 'utf8')) as RecordingResult;
    // The mock gives players and ships ids of its own kind (text); this deployment gave numbers. Every recorded route
    // and field else, the generalised ship read by an id the recording never saw included, answers as recorded.
    expect(driftsOf(result)).toEqual([
      { route: 'GET /api/player', where: '/player/id', recorded: 'number', now: 'string' },
      { route: 'GET /api/player/ship', where: '/ship/id', recorded: 'number', now: 'string' },
      { route: 'POST /api/player/ship', where: '/ship/id', recorded: 'number', now: 'string' },
      { route: 'GET /api/ships/:shipId', where: '/ship/id', recorded: 'number', now: 'string' },
    ]);
    expect(result.sent).toBe(9);
    expect(result.rules).toEqual([]);
    expect(run.code).toBe(1);
    // A run against a mock puts it back as it found it.
    expect(run.stdout).toContain('Left the target as the run found it');
  });
});

describe('check --recording: state the recording depended on', { timeout: 120_000 }, () => {
  const stateCommand = (deployment: RunningDeployment) =>
    `"${process.execPath}" -e "if (process.env.GAME_SERVICE_STATE === 'player-made') fetch('${deployment.url}/admin/ship-slots', { method: 'POST', body: JSON.stringify({ email: process.env.GAME_SERVICE_PLAYER_EMAIL }) }).then((r) => process.exit(r.ok ? 0 : 1))"`;

  it('reports an answer that differs where the state was not set up as that, not as drift', async () => {
    const { file, deployment, codes } = await recorded({ shipsNeedAnOperator: true });
    try {
      const { run, result } = await checkRecording(file, deployment, codes);
      expect(driftsOf(result)).toEqual([]);
      expect(run.code).toBe(0);
      expect(result.routes.find((route) => route.route === 'POST /api/player/ship')!.state).toEqual([
        expect.stringContaining('request 4: answered 403 where the recording had 200; the recording saw 403, 200 for this same request'),
      ]);
      expect(run.stdout).toContain('Depends on state the run did not set up (not counted as drift):');
    } finally {
      await deployment.close();
    }
  });

  it('sets the state up with --state-command, and still reports a drift beside it', async () => {
    const { file, deployment } = await recorded({ shipsNeedAnOperator: true });
    await deployment.close();
    const codesNow = join(temp(), 'codes-now.log');
    writeFileSync(codesNow, '');
    const release = await startDeployment({ shipsNeedAnOperator: true, drifts: ['ship-credits-as-string'], codeLog: codesNow });
    try {
      const { run, result } = await checkRecording(file, release, codesNow, ['--state-command', stateCommand(release)]);
      expect(driftsOf(result)).toEqual([{ route: 'GET /api/player/ship', where: '/ship/credits', recorded: 'number', now: 'string' }]);
      expect(result.routes.flatMap((route) => route.notSent)).toEqual([]);
      expect(run.code).toBe(1);
    } finally {
      await release.close();
    }
  });
});

describe('check --recording: what it refuses, and --dry-run', () => {
  it('lists what it would send with --dry-run, sending nothing', async () => {
    const { file, deployment } = await recorded();
    await deployment.close();
    const run = await cli.run(['check', '--recording', file, '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('  4. GET /api/ships/{{answer 2 /ship/id}} (with the token) → recorded 200\n');
  });

  it.each([
    ['--recording without --base-url', ['--recording', 'REC'], '--recording compares a target with what the recorded client read: pass --base-url'],
    ['--state-command without --recording', ['--base-url', 'http://127.0.0.1:9', '--state-command', 'true'], '--state-command sets up state for a recording'],
    [
      '--only with --recording',
      ['--base-url', 'http://127.0.0.1:9', '--recording', 'REC', '--only', 'RL-429'],
      '--only is a flag of the spec’s checks'.replace('’', "'"),
    ],
  ])('refuses %s (exit 2)', async (_, args, message) => {
    const file = join(temp(), 'rec.json');
    writeFileSync(file, JSON.stringify({ routes: [], session: [{ method: 'GET', path: '/api/player', route: 'GET /api/player', status: 200 }] }));
    const run = await cli.run(['check', ...args.map((arg) => (arg === 'REC' ? file : arg))]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('refuses a mock config without a recorded session, saying how to record one', async () => {
    const file = join(temp(), 'mock.json');
    writeFileSync(file, JSON.stringify({ routes: [] }));
    const run = await cli.run(['check', '--base-url', 'http://127.0.0.1:9', '--recording', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('holds no recorded session (its "session" key): record one with game-service proxy --target URL --record');
  });
});
