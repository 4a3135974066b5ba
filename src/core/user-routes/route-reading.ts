import type { RouteAnswerTemplates, UserRoute } from './user-route.js';

/** What a configured route reads from a request and can answer, as its templates and answers say: for its document. */
export interface RouteReading {
  /** Query parameters a template or an answer's condition reads. */
  query: string[];
  /** Fields of the JSON body a template or an answer's condition reads. */
  bodyFields: string[];
  /** Every literal status it answers; a status a template gives is `template`. */
  statuses: number[];
  /** Some status comes from a template, so that any from 200 to 599 may be answered. */
  templatedStatus: boolean;
  /** Some answer sends a body of its own (`body`), not the envelope. */
  ownBody: boolean;
  /** Answers chosen by conditions without a default: a request none matches is a 404. */
  notFoundWhenUnmatched: boolean;
}

const READS = /\{\{\s*(query|body)\.([\w$-]+)/g;

function statusOf(templates: RouteAnswerTemplates): number | 'template' {
  if (templates.status === undefined) return 200;
  return typeof templates.status === 'number' ? templates.status : /^\d{3}$/.test(templates.status) ? Number(templates.status) : 'template';
}

const hasTemplates = (route: RouteAnswerTemplates) => route.status !== undefined || route.response !== undefined || route.body !== undefined;

/** A route of the user's as its document describes it; a handler's route reads what its code reads, which no reading shows. */
export function readRoute(route: UserRoute): RouteReading {
  const query = new Set<string>();
  const bodyFields = new Set<string>();
  for (const [, root, key] of JSON.stringify(route).matchAll(READS)) (root === 'query' ? query : bodyFields).add(key!);
  const answers = route.answers ?? [];
  for (const answer of answers) {
    for (const key of Object.keys(answer.when?.query ?? {})) query.add(key);
    for (const key of Object.keys(answer.when?.body ?? {})) bodyFields.add(key);
  }
  const answering = answers.length === 0 || hasTemplates(route) ? [route, ...answers] : answers;
  const statuses = answering.map(statusOf);
  return {
    query: [...query],
    bodyFields: [...bodyFields],
    statuses: [...new Set(statuses.filter((status) => status !== 'template'))],
    templatedStatus: statuses.includes('template'),
    ownBody: answering.some((answer) => answer.body !== undefined),
    notFoundWhenUnmatched: answers.length > 0 && answers.every((answer) => answer.when !== undefined) && !hasTemplates(route) && route.handler === undefined,
  };
}
