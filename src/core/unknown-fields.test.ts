import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../test/support/core-harness.js';
import { MAX_JOURNAL_PATH_BYTES } from './journal.js';

const botChecked = () => new CoreHarness({ botCheck: { mode: 'tokens', tokens: ['XXXX.DUMMY.TOKEN.XXXX'] } });
const lastEntry = (harness: CoreHarness) => harness.service.journal.latest(1)[0]!;

describe('a refusal says what the client sent instead of a required field', () => {
  it('names a bot-check token sent under another name, and the journal records it', async () => {
    const harness = botChecked();
    const response = await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com', turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'challengeToken is required: complete the bot check; got turnstileToken, which the spec does not name' });
    expect(lastEntry(harness)).toMatchObject({ route: 'register', status: 400, unknownFields: ['turnstileToken'] });
  });

  it('names a code sent under another name', async () => {
    const harness = new CoreHarness();
    const response = await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', code: '123456' } });
    expect(response.body).toEqual({ error: 'otp is required; got code, which the spec does not name' });
  });

  it('says only what is missing when nothing else came', async () => {
    const response = await botChecked().call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    expect(response.body).toEqual({ error: 'challengeToken is required: complete the bot check' });
  });

  it('names at most five unknown fields in the refusal, and the journal keeps at most twenty, each bounded', async () => {
    const harness = new CoreHarness();
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`${index === 0 ? 'x'.repeat(100) : 'f'}${index}`, index]));
    const response = await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', ...fields } });
    expect((response.body as { error: string }).error).toMatch(/^otp is required; got x{64}…, f1, f2, f3, f4 and more, which the spec does not name$/);
    expect(lastEntry(harness).unknownFields).toHaveLength(20);
  });
});

describe('unknown fields where nothing is missing', () => {
  it('are accepted (the spec allows extra fields) and journaled; a body of known fields journals none', async () => {
    const harness = new CoreHarness();
    const extra = await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com', referrer: 'ad', locale: 'fr' } });
    expect(extra.status).toBe(200);
    expect(lastEntry(harness).unknownFields).toEqual(['referrer', 'locale']);
    await harness.call('POST', '/api/auth/register', { body: { email: 'b@example.com' } });
    expect(lastEntry(harness).unknownFields).toBeNull();
  });

  it('are not looked for in the ship payload, whose fields the spec does not show', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('pilot@example.com');
    await harness.call('POST', '/api/player/ship', { token, body: { shipName: 'Kestrel', classId: 'merchant' } });
    expect(lastEntry(harness)).toMatchObject({ route: 'createShip', unknownFields: null });
  });
});

describe('the journal keeps paths as sent, bounded in bytes', () => {
  it.each([
    ['ASCII', `/api/${'a'.repeat(5_000)}`],
    ['multi-byte', `/api/${'é中😀'.repeat(2_000)}`],
  ])('cuts a long %s path on a character boundary and marks the cut', async (_kind, path) => {
    const harness = new CoreHarness();
    expect((await harness.call('GET', path)).status).toBe(404);
    const kept = lastEntry(harness).path;
    expect(new TextEncoder().encode(kept).byteLength).toBeLessThanOrEqual(MAX_JOURNAL_PATH_BYTES);
    expect(kept.endsWith('…')).toBe(true);
    expect(path.startsWith(kept.slice(0, -1))).toBe(true);
    expect(kept.isWellFormed()).toBe(true);
  });

  it('keeps a path within the bound whole', async () => {
    const harness = new CoreHarness();
    const path = `/api/${'b'.repeat(MAX_JOURNAL_PATH_BYTES - 5)}`;
    await harness.call('GET', path);
    expect(lastEntry(harness).path).toBe(path);
  });
});
