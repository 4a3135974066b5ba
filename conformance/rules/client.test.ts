import { describe, expect, it } from 'vitest';
import { requestDepartures } from './client.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const rulesOf = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  requestDepartures(method, path, headers, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)).map(
    (departure) => departure.rule,
  );

describe('requestDepartures: what a client may send (nothing reported)', () => {
  it.each([
    ['register with email', 'POST', '/api/auth/register', JSON_TYPE, { email: 'a@example.com' }],
    ['register with the bot-check token', 'POST', '/api/auth/register', JSON_TYPE, { email: 'a@example.com', challengeToken: 't' }],
    ['a charset on the media type', 'POST', '/api/auth/register', { 'content-type': 'application/json; charset=utf-8' }, { email: 'a@example.com' }],
    ['verify with a code of 6 digits, a leading zero kept', 'POST', '/api/auth/verify-email', JSON_TYPE, { email: 'a@example.com', otp: '012345' }],
    ['the scheme in lower case', 'GET', '/api/player', { authorization: 'bearer 2b1c0ad4-8a3e-4d5e-9f6a-7b8c9d0e1f2a' }, undefined],
    ['any ship payload (not shown)', 'POST', '/api/player/ship', { ...JSON_TYPE, authorization: 'Bearer x' }, { shipName: 'Nomad', galaxyId: 1 }],
    ['a route beyond the table, without a token', 'GET', '/api/galaxy/1/sectors', {}, undefined],
  ])('%s', (_what, method, path, headers, body) => {
    expect(rulesOf(method, path, headers, body)).toEqual([]);
  });
});

describe('requestDepartures: what the spec does not describe, each on its rule', () => {
  it.each([
    ['a misnamed bot-check field', 'POST', '/api/auth/register', JSON_TYPE, { email: 'a@example.com', turnstileToken: 't' }, 'CLIENT-REGISTER-FIELDS'],
    ['register without email', 'POST', '/api/auth/register', JSON_TYPE, {}, 'CLIENT-REGISTER-FIELDS'],
    ['register without a body', 'POST', '/api/auth/register', {}, undefined, 'CLIENT-REGISTER-FIELDS'],
    ['an email that is no string', 'POST', '/api/auth/register', JSON_TYPE, { email: 42 }, 'CLIENT-REGISTER-FIELDS'],
    ['verify without otp', 'POST', '/api/auth/verify-email', JSON_TYPE, { email: 'a@example.com' }, 'CLIENT-VERIFY-FIELDS'],
    ['a numeric otp', 'POST', '/api/auth/verify-email', JSON_TYPE, { email: 'a@example.com', otp: 123456 }, 'CLIENT-VERIFY-FIELDS'],
    ['an otp of 5 digits', 'POST', '/api/auth/verify-email', JSON_TYPE, { email: 'a@example.com', otp: '12345' }, 'CLIENT-VERIFY-FIELDS'],
    ['a body as text/plain', 'POST', '/api/player/ship', { 'content-type': 'text/plain', authorization: 'Bearer x' }, { name: 'Nomad' }, 'CLIENT-CONTENT-TYPE'],
    ['a body that is no JSON', 'POST', '/api/player/ship', { ...JSON_TYPE, authorization: 'Bearer x' }, '{"name":', 'CLIENT-BODY-JSON'],
    ['a protected read without a token', 'GET', '/api/player', {}, undefined, 'CLIENT-BEARER'],
    ['another scheme', 'GET', '/api/player', { authorization: 'Token x' }, undefined, 'CLIENT-BEARER'],
  ])('%s', (_what, method, path, headers, body, rule) => {
    expect(rulesOf(method, path, headers as Record<string, string>, body)).toEqual([rule]);
  });
});
