import { describe, expect, it } from 'vitest';
import { registeredEmail } from './registered-emails.js';
import { describeAddresses } from './registered-players.js';

describe('the addresses a run registered', () => {
  it('are those a registration, a player creation or a scenario was accepted for', () => {
    const post = (path: string, json: unknown) => ({ method: 'POST', path, json });
    expect(registeredEmail(post('/api/auth/register', { email: 'a@example.com' }), 200)).toBe('a@example.com');
    expect(registeredEmail(post('/__mock/players', { email: 'b@example.com' }), 200)).toBe('b@example.com');
    expect(registeredEmail(post('/__mock/scenarios/unverified-player', { email: 'c@example.com' }), 200)).toBe('c@example.com');
    expect(registeredEmail(post('/api/auth/register', { email: 'refused@mailinator.com' }), 400)).toBeUndefined();
    expect(registeredEmail(post('/api/auth/register', { email: ['x@example.com'] }), 200)).toBeUndefined();
    expect(registeredEmail(post('/api/auth/verify-email', { email: 'a@example.com', otp: '123456' }), 200)).toBeUndefined();
    expect(registeredEmail({ method: 'GET', path: '/__mock/players?email=a@example.com' }, 200)).toBeUndefined();
  });

  it("are named by the template's pattern with the seed, and by name outside it", () => {
    const scheme = { emailTemplate: 'conformance+{id}@example.com', seed: 42 };
    const made = ['conformance+verify-42-m1-0@example.com', 'conformance+player-42-m1-1@example.com'];
    expect(describeAddresses(new Set(made), scheme)).toBe('the 2 addresses the run registered (conformance+*-42-*@example.com)');
    expect(describeAddresses(new Set([...made, 'odd@example.org']), scheme)).toBe(
      'the 3 addresses the run registered (conformance+*-42-*@example.com, odd@example.org)',
    );
    expect(describeAddresses(new Set(['odd@example.org']), scheme)).toBe('the 1 address the run registered (odd@example.org)');
  });
});
