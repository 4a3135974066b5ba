import type { Target } from '../target.js';
import type { OtpSource } from './otp-source.js';

/** The target's outbox (GET /__mock/outbox): the newest pending code for the address. */
export function controlSource(target: Target): OtpSource {
  return {
    beforeRegister: async () => {},
    codeFor: async (email) => {
      const exchange = await target.send({ method: 'GET', path: `/__mock/outbox?email=${encodeURIComponent(email)}` });
      const messages = (exchange.body as { messages?: { code: string; state: string }[] } | undefined)?.messages ?? [];
      const pending = messages.find((message) => message.state === 'pending');
      if (pending === undefined)
        throw new Error(`the target's outbox holds no pending code for ${email} (answer ${exchange.status}: ${exchange.text.slice(0, 200)})`);
      return pending.code;
    },
  };
}
