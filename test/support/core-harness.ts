import { ManualClock } from '../../src/core/clock.js';
import type { ServiceResponse } from '../../src/core/http.js';
import type { OtpDelivery, ServiceOptions } from '../../src/core/options.js';
import { createService, type Service } from '../../src/core/service.js';

export const START = Date.parse('2026-11-21T10:00:00.000Z');
export const GAME_ORIGIN = 'http://game.test';

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  ip?: string;
  token?: string;
  origin?: string;
  /** The query string, without its `?`. */
  query?: string;
}

/** A service on a manual clock whose delivered codes are captured, driven through `handle` without a socket. */
export class CoreHarness {
  readonly clock = new ManualClock(START);
  readonly deliveries: OtpDelivery[] = [];
  readonly service: Service;

  constructor(options: Partial<ServiceOptions> = {}) {
    this.service = createService({
      version: '1.2.3',
      clock: this.clock,
      gameOrigins: [GAME_ORIGIN],
      onOtp: (delivery) => this.deliveries.push(delivery),
      ...options,
    });
  }

  call(method: string, path: string, options: CallOptions = {}): Promise<ServiceResponse> {
    const text = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const headers: Record<string, string> = { ...options.headers };
    if (text !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    if (options.origin !== undefined) headers['origin'] = options.origin;
    return this.service.handle({
      method,
      path,
      ...(options.query === undefined ? {} : { query: options.query }),
      headers,
      body: text === undefined ? undefined : new TextEncoder().encode(text),
      ip: options.ip ?? '203.0.113.1',
    });
  }

  lastCode(email: string): string {
    const delivery = this.deliveries.findLast((d) => d.email === email);
    if (delivery === undefined) throw new Error(`no code was delivered to ${email}`);
    return delivery.code;
  }

  /** Registers and verifies from its own IP (so tests keep their auth budget), returning the token. */
  async signIn(email: string, ip = `198.51.100.${this.deliveries.length % 250}`): Promise<string> {
    const registered = await this.call('POST', '/api/auth/register', { body: { email }, ip });
    if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered)}`);
    const verified = await this.call('POST', '/api/auth/verify-email', { body: { email, otp: this.lastCode(email) }, ip });
    if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified)}`);
    return (verified.body as { authToken: string }).authToken;
  }
}
