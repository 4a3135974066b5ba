import type { Exchange } from '../common/exchange.js';
import type { OtpSource } from './otp-source.js';
import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';

/** Whatever sends the control API's requests: the run's target. */
export interface OutboxReader {
  send(call: { method: string; path: string }): Promise<Exchange>;
}

/** The target's outbox, read through its control API: the newest pending code for the address, or whether it was sent any. */
export function controlSource(target: OutboxReader): OtpSource {
  const read = async (email: string) => {
    const exchange = await target.send({ method: CONTROL_ROUTES.outbox.method, path: `${CONTROL_ROUTES.outbox.pattern}?email=${encodeURIComponent(email)}` });
    return { exchange, messages: (exchange.body as { messages?: { code: string; state: string }[] } | undefined)?.messages ?? [] };
  };
  return {
    beforeRegister: async () => {},
    codeFor: async (email) => {
      const { exchange, messages } = await read(email);
      const pending = messages.find((message) => message.state === 'pending');
      if (pending === undefined)
        throw new Error(`the target's outbox holds no pending code for ${email} (answer ${exchange.status}: ${exchange.text.slice(0, 200)})`);
      return pending.code;
    },
    deliveredAny: async (email) => {
      const { exchange, messages } = await read(email);
      if (exchange.status !== 200)
        throw new Error(`the target's outbox could not be read for ${email} (answer ${exchange.status}: ${exchange.text.slice(0, 200)})`);
      return messages.length > 0;
    },
  };
}
