import { MockControlError } from '../../src/hosts/mock-control.js';

/** The status and message of a control call the mock refused; throws when it was answered. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof MockControlError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, message: error.envelopeMessage };
}
