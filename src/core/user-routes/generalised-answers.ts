/** Marks an answer given from a recorded answer of another value, naming that value: `query id=1`. */
export const GENERALISED_HEADER = 'x-mock-generalised';

/** The answers given for requests none of a route's answers was recorded for, as the routes listing shows them. */
export interface GeneralisedAnswer {
  /** The values the request sent in place of the recorded ones: `query id=10`. */
  request: string;
  /** The recorded values of the answer given: `query id=1`. */
  from: string;
  times: number;
}

/** Distinct generalisations a route remembers for its listing; later ones are counted under none. */
const MAX_GENERALISATIONS_LISTED = 100;

/** What a route generalised, by request and recorded answer. */
export class GeneralisedAnswers {
  readonly #byRequest = new Map<string, GeneralisedAnswer>();

  add(request: string, from: string): void {
    const key = `${request}\u0000${from}`;
    const known = this.#byRequest.get(key);
    if (known !== undefined) known.times++;
    else if (this.#byRequest.size < MAX_GENERALISATIONS_LISTED) this.#byRequest.set(key, { request, from, times: 1 });
  }

  list(): GeneralisedAnswer[] {
    return [...this.#byRequest.values()].map((each) => ({ ...each }));
  }
}
