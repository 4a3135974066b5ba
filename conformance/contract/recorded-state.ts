import type { RecordedRequest } from '../../src/spec/recorded-session.js';
import { canonicalJson } from '../common/canonical-json.js';
import { sameStatus } from './drift.js';

const requestKey = (request: RecordedRequest) => `${request.method} ${request.path} ${canonicalJson(request.body)}`;

const isSuccess = (status: number) => status >= 200 && status < 400;
const isClientError = (status: number) => status >= 400 && status < 500;

/**
 * What the recording's answers depended on outside the session. A request the recording sent more than once and
 * saw answered with different statuses (a 403, then a 200 once an operator gave the player a ship) depends on state
 * the client did not make: an answer with one of those statuses is that state, not drift. What follows from it is
 * no drift either: where the state is missing, a success of the recording refused now; where it was set up earlier
 * than in the recording, the same request sent again.
 */
export class RecordedState {
  readonly #requests: readonly RecordedRequest[];
  readonly #statuses = new Map<string, number[]>();
  readonly #sending: Map<string, number[]>;
  #first: { index: number; missing: boolean } | undefined;

  constructor(requests: readonly RecordedRequest[]) {
    this.#requests = requests;
    for (const request of requests) this.#statuses.set(requestKey(request), [...(this.#statuses.get(requestKey(request)) ?? []), request.status]);
    this.#sending = Map.groupBy(requests.keys(), (index) => requestKey(requests[index]!));
  }

  /** The indexes of the requests that send what request `index` sends, it among them. */
  sameRequests(index: number): readonly number[] {
    return this.#sending.get(requestKey(this.#requests[index]!)) ?? [index];
  }

  /** Why request `index` answered `status` where the recording had another is no drift, or undefined where it is one. */
  explain(index: number, status: number): string | undefined {
    const recorded = this.#requests[index]!.status;
    if (sameStatus(recorded, status)) return undefined;
    const seen = this.#statuses.get(requestKey(this.#requests[index]!)) ?? [];
    if (seen.some((each) => sameStatus(each, status))) {
      this.#first ??= { index, missing: isSuccess(recorded) && !isSuccess(status) };
      return `request ${index + 1}: answered ${status} where the recording had ${recorded}; the recording saw ${seen.join(', ')} for this same request: its answer depends on state outside the session (set it up with --state-command)`;
    }
    const first = this.#first;
    if (first === undefined) return undefined;
    const follows = first.missing ? isSuccess(recorded) && isClientError(status) : this.sameRequests(first.index).includes(index);
    return follows
      ? `request ${index + 1}: answered ${status} where the recording had ${recorded}, after request ${first.index + 1}, whose answer depended on state`
      : undefined;
  }
}
