import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../spec/routes.js';
import { errorEnvelopeSchema, successEnvelopeSchema } from '../spec/schemas.js';
import { CoreHarness, GAME_ORIGIN } from '../../test/support/core-harness.js';
import { propertyParameters } from '../../test/support/property.js';

const ajv = new Ajv2020({ strict: false });
const isError = ajv.compile(errorEnvelopeSchema);
const isSuccess = ajv.compile(successEnvelopeSchema);

const method = fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'), fc.string({ maxLength: 8 }));
const path = fc.oneof(
  fc.constantFrom(...ROUTES.map((route) => route.path)),
  fc.webPath(),
  fc.string({ maxLength: 40 }).map((text) => `/${text}`),
);
const jsonBody = fc
  .oneof(
    fc.jsonValue(),
    fc.record(
      {
        email: fc.oneof(fc.emailAddress(), fc.string(), fc.jsonValue()),
        otp: fc.oneof(fc.stringMatching(/^\d{6}$/), fc.string(), fc.integer()),
        challengeToken: fc.oneof(fc.string(), fc.jsonValue()),
        name: fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    ),
  )
  .map((value) => new TextEncoder().encode(JSON.stringify(value) ?? ''));
const body = fc.option(fc.oneof(jsonBody, fc.uint8Array({ maxLength: 64 })), { nil: undefined });
const headers = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'text/plain', '', 'application/json; charset=utf-8', 'application/problem+json'),
    authorization: fc.oneof(
      fc.string(),
      fc.uuid().map((uuid) => `Bearer ${uuid}`),
      fc.constant('Bearer'),
    ),
    origin: fc.oneof(fc.constant(GAME_ORIGIN), fc.webUrl(), fc.string()),
  },
  { requiredKeys: [] },
);
const request = fc.record({ method, path, headers, body, ip: fc.ipV4() });

describe('any request', () => {
  it('gets a JSON body that is exactly one of the two envelopes, and never a 500', async () => {
    const harness = new CoreHarness();
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const response = await harness.service.handle(input);
        expect(response.status).not.toBe(500);
        if (response.status === 204) {
          expect(response.body).toBeUndefined();
          return;
        }
        const decoded = JSON.parse(JSON.stringify(response.body)) as unknown;
        expect(isError(decoded) !== isSuccess(decoded)).toBe(true);
        expect(isSuccess(decoded)).toBe(response.status === 200);
      }),
      propertyParameters('envelope on any request', 500),
    );
  });

  it('that is well-formed runs the whole auth flow without a 500, whatever the emails', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 30 })), { minLength: 1, maxLength: 6 }), async (emails) => {
        const harness = new CoreHarness();
        for (const [index, email] of emails.entries()) {
          const ip = `10.0.0.${index}`;
          const registered = await harness.call('POST', '/api/auth/register', { body: { email }, ip });
          expect([200, 400]).toContain(registered.status);
          if (registered.status !== 200) continue;
          const delivered = harness.deliveries.at(-1)!;
          const verified = await harness.call('POST', '/api/auth/verify-email', { body: { email, otp: delivered.code }, ip });
          expect(verified.status).toBe(200);
          const token = (verified.body as { authToken: string }).authToken;
          const player = await harness.call('GET', '/api/player', { token });
          expect((player.body as { player: { email: string } }).player.email).toBe(delivered.email);
        }
      }),
      propertyParameters('auth flow over arbitrary emails', 100),
    );
  });
});
