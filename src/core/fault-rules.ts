import type { JSONSchemaType } from 'ajv';
import { FAULT_KINDS, type FaultKind } from '../spec/control-schemas.js';
import { ApiError } from './errors.js';
import { FAULT_STATUSES, type FaultRule, type FaultStatus } from './faults.js';
import { validator } from './validation.js';

/** The most latency one fault may add: long enough for any timeout a client sets, short of a hang. */
export const MAX_FAULT_LATENCY_MS = 120_000;

/** A fault rule as JSON (config file, control API, in-process control): `kind` and what it needs. */
export interface FaultRuleJson {
  method?: string;
  path?: string;
  probability?: number;
  kind: FaultKind;
  status?: number;
  /** A fixed latency; or minMs and maxMs for a range. */
  ms?: number;
  minMs?: number;
  maxMs?: number;
}

const LATENCY = { type: 'integer', minimum: 0, maximum: MAX_FAULT_LATENCY_MS, nullable: true } as const;

export const FAULT_RULE_SCHEMA: JSONSchemaType<FaultRuleJson> = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    method: { type: 'string', pattern: '^(\\*|[A-Za-z]+)$', nullable: true },
    path: { type: 'string', pattern: '^(\\*|/.*)$', maxLength: 500, nullable: true },
    probability: { type: 'number', minimum: 0, maximum: 1, nullable: true },
    kind: { type: 'string', enum: FAULT_KINDS },
    status: { type: 'integer', enum: [...FAULT_STATUSES], nullable: true },
    ms: LATENCY,
    minMs: LATENCY,
    maxMs: LATENCY,
  },
};

const validFaultJson = validator(FAULT_RULE_SCHEMA, 'fault');

/** A fault rule from JSON; a 400 (ApiError) naming what is wrong. */
export function faultRuleFromJson(value: unknown, subject = 'fault'): FaultRule {
  const json = validFaultJson(value, subject);
  const where = { method: json.method?.toUpperCase() ?? '*', path: json.path ?? '*', probability: json.probability ?? 1 };
  switch (json.kind) {
    case 'status':
      if (json.status === undefined) throw new ApiError(400, `${subject}: a status fault names its status, one of ${FAULT_STATUSES.join(', ')}`);
      return { ...where, kind: 'status', status: json.status as FaultStatus };
    case 'latency': {
      const minMs = json.ms ?? json.minMs;
      const maxMs = json.ms ?? json.maxMs ?? minMs;
      if (minMs === undefined || maxMs === undefined || maxMs < minMs)
        throw new ApiError(400, `${subject}: a latency fault takes ms, or minMs and maxMs with minMs <= maxMs`);
      return { ...where, kind: 'latency', minMs, maxMs };
    }
    default:
      return { ...where, kind: json.kind };
  }
}

const TEXT_FORM = '[METHOD] PATH EFFECT[@PROBABILITY], EFFECT one of 500, 502, 503, 504, 429, latency:MS, latency:MIN-MAX, reset, truncate';

function effectJson(effect: string): Omit<FaultRuleJson, 'method' | 'path' | 'probability'> | undefined {
  if (effect === '429') return { kind: 'rate-limit' };
  if (/^\d{3}$/.test(effect) && (FAULT_STATUSES as readonly number[]).includes(Number(effect))) return { kind: 'status', status: Number(effect) };
  const latency = /^latency:(\d+)(?:-(\d+))?$/.exec(effect);
  if (latency !== null)
    return latency[2] === undefined ? { kind: 'latency', ms: Number(latency[1]) } : { kind: 'latency', minMs: Number(latency[1]), maxMs: Number(latency[2]) };
  if (effect === 'reset' || effect === 'truncate' || effect === 'rate-limit') return { kind: effect };
  return undefined;
}

function probabilityOf(text: string): number | undefined {
  const percent = text.endsWith('%');
  const value = Number(percent ? text.slice(0, -1) : text);
  return text !== '' && Number.isFinite(value) ? (percent ? value / 100 : value) : undefined;
}

/** `GET /api/player 503@0.2`, `/api/* latency:100-500`, `POST /api/auth/register reset@10%`: a rule from --fault. */
export function faultRuleFromText(text: string, subject = `fault ${JSON.stringify(text)}`): FaultRule {
  const words = text.trim().split(/\s+/);
  if (words.length < 2 || words.length > 3) throw new ApiError(400, `${subject} is not ${TEXT_FORM}`);
  const [method, path, effectText] = words.length === 3 ? words : ['*', ...words];
  const [effect = '', probabilityText] = effectText!.split('@');
  const json = effectJson(effect);
  const probability = probabilityText === undefined ? 1 : probabilityOf(probabilityText);
  if (json === undefined || probability === undefined) throw new ApiError(400, `${subject} is not ${TEXT_FORM}`);
  return faultRuleFromJson({ ...json, method, path, probability }, subject);
}

/** A rule in either form: the --fault text, or JSON. */
export function faultRuleFrom(value: FaultRuleJson | string, subject?: string): FaultRule {
  return typeof value === 'string' ? faultRuleFromText(value, subject) : faultRuleFromJson(value, subject);
}
