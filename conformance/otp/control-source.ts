import type { Exchange } from '../common/exchange.js';
import type { OtpSource } from './otp-source.js';
import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';

/** Whatever sends the control API's requests: the run's target. */
export interface OutboxReader {
  send(call: { method: string; path: string }): Promise<Exchange>;
}

/** The target's outbox, read through its control API: the newest pending code for the address. */
export function controlSource(target: OutboxReader): OtpSource {
  return {
    beforeRegister: async () => {},
    codeFor: async (email) => {
      const exchange = await target.send({ method: CONTROL_ROUTES.outbox.method, path: `${CONTROL_ROUTES.outbox.pattern}?email=${encodeURIComponent(email)}` });
      const messages = (exchange.body as { messages?: { code: string; state: string }[] } | undefined)?.messages ?? [];
      const pending = messages.find((message) => message.state === 'pending');
      if (pending === undefined)
        throw new Error(`the target's outbox holds no pending code for ${email} (answer ${exchange.status}: ${exchange.text.slice(0, 200)})`);
      return pending.code;
    },
  };
}
