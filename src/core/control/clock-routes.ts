import type { JSONSchemaType } from 'ajv';
import { readJsonObject } from '../body.js';
import type { ControllableClock } from '../clock.js';
import { ApiError } from '../errors.js';
import { validator } from '../validation.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';

interface ClockChange {
  set?: string;
  advanceMs?: number;
  frozen?: boolean;
}

const CLOCK_CHANGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    set: { type: 'string', nullable: true },
    advanceMs: { type: 'integer', minimum: 0, nullable: true },
    frozen: { type: 'boolean', nullable: true },
  },
} satisfies JSONSchemaType<ClockChange>;
const parseClockChange = validator<ClockChange>(CLOCK_CHANGE_SCHEMA, 'body');

/** The latest time the clock may show, so that every expiry after it is still a date (year 9999 and 7 days). */
const LATEST_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function clockState(clock: ControllableClock) {
  const now = clock.now();
  return { now: new Date(now).toISOString(), nowMs: now, frozen: clock.frozen };
}

function controllable(context: ControlContext): ControllableClock {
  if (context.clock === undefined) throw new ApiError(409, 'This service was created with a clock the control API cannot move');
  return context.clock;
}

/** The clock, read and moved: moving it moves every expiry, window and refill at once. */
export function clockRoutes(context: ControlContext): ControlRoute[] {
  return [
    declaredRoute('clock', () => clockState(controllable(context))),
    declaredRoute(
      'setClock',
      ({ request }) => {
        const clock = controllable(context);
        const change = parseClockChange(readJsonObject(request));
        const setTo = change.set === undefined ? undefined : Date.parse(change.set);
        if (setTo !== undefined && (Number.isNaN(setTo) || !ISO_DATE_TIME.test(change.set!)))
          throw new ApiError(400, 'body /set must be an ISO 8601 date-time');
        if (change.advanceMs !== undefined && (setTo ?? clock.now()) + change.advanceMs > LATEST_CLOCK_MS)
          throw new ApiError(400, `body /advanceMs would move the clock past ${new Date(LATEST_CLOCK_MS).toISOString()}`);
        // Frozen first: a running clock set and then frozen would stop wherever real time had moved it meanwhile.
        if (change.frozen === true) clock.freeze();
        if (setTo !== undefined) clock.set(setTo);
        if (change.advanceMs !== undefined) clock.advance(change.advanceMs);
        if (change.frozen === false) clock.unfreeze();
        return clockState(clock);
      },
      { body: CLOCK_CHANGE_SCHEMA },
    ),
  ];
}
