import { isControlPath } from '../../src/spec/control-routes.js';
import { ROUTES, specRoute } from '../../src/spec/routes.js';
import { AnswerBudget } from './answer-budget.js';
import { AnswerError, boundedRequest } from './bounded-answer.js';
import type { Call } from './call.js';
import { ClockControl } from './clock-control.js';
import type { ConformanceConfig } from './target-config.js';
import { endpoint, type Exchange, parsedJson } from '../common/exchange.js';
import { IdentityPool, type Identity } from './identities.js';
import { Pacer } from './pacing.js';
import { registeredEmail } from './registered-emails.js';
import type { HarRecorder } from '../report/har.js';
import { TrafficInvariants } from '../rules/traffic.js';
import { SessionTraffic } from '../rules/session/session-traffic.js';
import { escapedJson, RequestFramings } from './framing.js';
import { runHeader } from './run-header.js';

/** The Auth category is register and verify-email: the spec names their POST only, so other methods on those paths are not paced. */
const AUTH_ROUTES = new Set<string>(ROUTES.filter((route) => route.category === 'auth').map((route) => `${route.method} ${route.path}`));
const REGISTER_PATH = specRoute('register').path;

/** The server under test: every request of every check goes through `send`, and so through one scheduler. */
export class Target {
  readonly config: ConformanceConfig;
  readonly identities: IdentityPool;
  readonly clock: ClockControl | undefined;
  /** Every response outside the control API, judged against the invariants that hold for all of them. */
  readonly traffic = new TrafficInvariants();
  /** Every exchange of the run, control API's included, judged as one session of all its clients and players. */
  readonly session: SessionTraffic;
  /** The one scheduler of the run's requests: callers that plan their auth requests ask it for room. */
  readonly pacer: Pacer;
  readonly #default: Identity;
  /** Every address the target took a registration or a player for, in order (repeats included): the run removes them at its end. */
  readonly registeredEmails: string[] = [];
  /** How long the run waits on the target's answers: a request, a check (the run's test module starts each check's). */
  readonly answers: AnswerBudget;
  /** Set when the run writes its exchanges as HAR. */
  har: HarRecorder | undefined;
  /** How each request is framed: as one of the ways real clients send what the spec accepts. */
  readonly #framings: RequestFramings;
  /** Once aborted (an interrupt), nothing more is sent and every wait ends. */
  #stopSignal: AbortSignal | undefined;

  constructor(config: ConformanceConfig) {
    this.config = config;
    this.#framings = new RequestFramings(config.seed);
    this.session = new SessionTraffic(config.gameOrigin === null ? [] : [config.gameOrigin]);
    this.identities = new IdentityPool(config.sourceIps, config.clientIpHeader);
    this.answers = new AnswerBudget(config.requestTimeout * 1000);
    this.#default = this.identities.fresh();
    this.clock = config.capabilities?.clockControl === true ? new ClockControl(this, (ms) => this.pacer.clockMoved(ms)) : undefined;
    this.pacer = new Pacer(this.clock, config.maxWait);
  }

  get stopSignal(): AbortSignal | undefined {
    return this.#stopSignal;
  }

  set stopSignal(signal: AbortSignal | undefined) {
    this.#stopSignal = signal;
    this.pacer.stopSignal = signal;
  }

  async send(call: Call): Promise<Exchange> {
    const identity = call.identity ?? this.#default;
    for (let attempt = 0; ; attempt++) {
      this.#stopSignal?.throwIfAborted();
      if (AUTH_ROUTES.has(`${call.method.toUpperCase()} ${call.path}`)) {
        // A check that wants a 429 is not held back, but what it sends still counts in the client's budget.
        if (call.expectLimit === true) this.pacer.recordAuth(identity);
        else await this.pacer.beforeAuth(identity);
      }
      const exchange = await this.#sendOnce(call, identity);
      const isControl = isControlPath(call.path.split('?')[0]!);
      const registered = registeredEmail(call, exchange.status);
      if (registered !== undefined) this.registeredEmails.push(registered);
      this.har?.record(exchange, isControl);
      if (!isControl) this.traffic.record(call.path.split('?')[0]!, exchange, call.origin !== this.config.gameOrigin);
      if (exchange.status !== 429 || call.expectLimit === true || call.acceptLimit === true || isControl) return exchange;
      const auth = AUTH_ROUTES.has(`${call.method.toUpperCase()} ${call.path}`);
      // With one client address there is no other of the run's to share a bucket with.
      if (auth && this.identities.distinct > 1 && call.path === REGISTER_PATH && this.#newAddress(call)) this.pacer.noteRefusedWithRoom(identity, exchange);
      if (!(await this.pacer.after429(exchange, attempt, auth))) return exchange;
    }
  }

  /** A registration of an address the run has not registered before (a server may limit one address's registrations: not shown). */
  #newAddress(call: Call): boolean {
    const email = (call.json as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' && !this.registeredEmails.includes(email);
  }

  /** A target with its bot-check on needs a challengeToken in every registration: one the caller left out is added. */
  #withChallengeToken(call: Call): unknown {
    const token = this.config.challengeToken;
    const json = call.json;
    if (token === null || call.path !== REGISTER_PATH || typeof json !== 'object' || json === null || Array.isArray(json) || 'challengeToken' in json)
      return json;
    return { ...json, challengeToken: token };
  }

  async #sendOnce(call: Call, identity: Identity): Promise<Exchange> {
    const url = endpoint(this.config.baseUrl, call.path);
    const framing = this.#framings.next();
    const headers: Record<string, string> = {
      ...runHeader(this.config.seed),
      ...(framing.acceptEncoding === undefined ? {} : { 'accept-encoding': framing.acceptEncoding }),
    };
    if (call.json !== undefined) headers['content-type'] = framing.contentType;
    // A check that frames its request itself is taken at its word.
    Object.assign(headers, call.headers);
    const json = call.json === undefined ? undefined : JSON.stringify(this.#withChallengeToken(call));
    const body = json === undefined ? call.rawBody : framing.escapedJson ? escapedJson(json) : json;
    if (call.token !== undefined) headers['authorization'] = `Bearer ${call.token}`;
    if (call.origin !== undefined) headers['origin'] = call.origin;
    if (identity.addressHeader !== undefined) headers[identity.addressHeader.name.toLowerCase()] = identity.addressHeader.value;
    const sentAt = Date.now();
    const path = call.path.split('?')[0]!;
    const judging = this.session.sending({ method: call.method, path, headers, clientIp: identity.addressHeader?.value ?? identity.label, receivedAt: sentAt });
    const response = await this.#answerOf(url, { method: call.method as 'GET', headers, body: body ?? null, dispatcher: identity.dispatcher }).catch(
      (error: unknown) => {
        judging.unanswered();
        throw error;
      },
    );
    const { text } = response;
    const responseHeaders = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]),
    );
    const exchange: Exchange = {
      method: call.method,
      url,
      requestHeaders: headers,
      requestBody: body,
      status: response.status,
      headers: responseHeaders,
      text,
      body: parsedJson(text),
      sentAt,
      receivedAt: Date.now(),
    };
    judging.answered(exchange);
    return exchange;
  }

  /** The answer within what is left of the check's budget: a request that runs out of it fails the check, saying so. */
  async #answerOf(url: string, options: Parameters<typeof boundedRequest>[1]) {
    const { ms, byCheck, done } = this.answers.begin();
    try {
      return await boundedRequest(url, options, ms, this.#stopSignal);
    } catch (error) {
      if (!(error instanceof AnswerError) || !error.late) throw error;
      const what = `${options.method} ${new URL(url).pathname}`;
      const late = byCheck
        ? new AnswerError(
            `the check's time budget is spent: ${this.answers.checkMs / 1000} s in all waiting on the target's answers (its planned waits aside), ${what} still unanswered`,
            true,
          )
        : error;
      this.answers.late(what);
      throw late;
    } finally {
      done();
    }
  }
}
