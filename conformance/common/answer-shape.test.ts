import { describe, expect, it } from 'vitest';
import { shapeDrifts, shapeOf, valueAt } from './answer-shape.js';

const SECTOR = {
  success: true,
  sector: {
    id: 3,
    name: 'Vega',
    port: null,
    ships: [
      { name: 'Nomad', hull: 100 },
      { name: 'Drifter', hull: 80, cargo: 5 },
    ],
  },
};

describe('shapeOf', () => {
  it('names the type at each pointer, array items under *, with the fields every item has', () => {
    expect(shapeOf(SECTOR)).toEqual({
      '': 'object',
      '/success': 'boolean',
      '/sector': 'object',
      '/sector/id': 'number',
      '/sector/name': 'string',
      '/sector/port': 'null',
      '/sector/ships': 'array',
      '/sector/ships/*': 'object',
      '/sector/ships/*/name': 'string',
      '/sector/ships/*/hull': 'number',
    });
  });

  it('takes a field null in one item and a number in another as a number, and leaves out one of two types', () => {
    expect(
      shapeOf({
        list: [
          { a: null, b: 1 },
          { a: 2, b: 'x' },
        ],
      }),
    ).toEqual({ '': 'object', '/list': 'array', '/list/*': 'object', '/list/*/a': 'number' });
  });

  it('escapes keys as JSON Pointers do', () => {
    expect(shapeOf({ 'a/b': { '~': 1 } })).toEqual({ '': 'object', '/a~1b': 'object', '/a~1b/~0': 'number' });
    expect(valueAt({ 'a/b': { '~': 1 } }, '/a~1b/~0')).toBe(1);
  });
});

describe('shapeDrifts', () => {
  const shape = shapeOf(SECTOR);

  it('finds nothing where only values differ, fields were added, or a field is null', () => {
    const other = { success: true, extra: 1, sector: { id: 10, name: 'Sector 10', port: 'Dock', ships: [] } };
    expect(shapeDrifts(shape, other)).toEqual([]);
    expect(shapeDrifts(shape, { ...SECTOR, sector: { ...SECTOR.sector, name: null } })).toEqual([]);
  });

  it('finds a field renamed as gone, once, and a type changed, each on its pointer', () => {
    const { name, ...rest } = SECTOR.sector;
    expect(shapeDrifts(shape, { ...SECTOR, sector: { ...rest, title: name, id: '3' } })).toEqual([
      { pointer: '/sector/id', recorded: 'number', now: 'string' },
      { pointer: '/sector/name', recorded: 'string', now: 'missing' },
    ]);
  });

  it("finds a field dropped from an array's items once, and an object gone only where it went", () => {
    const ships = SECTOR.sector.ships.map(({ hull }) => ({ hull }));
    expect(shapeDrifts(shape, { ...SECTOR, sector: { ...SECTOR.sector, ships } })).toEqual([
      { pointer: '/sector/ships/*/name', recorded: 'string', now: 'missing' },
    ]);
    expect(shapeDrifts(shape, { success: true })).toEqual([{ pointer: '/sector', recorded: 'object', now: 'missing' }]);
    // An item the recording never saw may lack a field the recorded ones had: gone only when no item has it.
    const mixed = [{ name: 'Nomad', hull: 100 }, { hull: 80 }];
    expect(shapeDrifts(shape, { ...SECTOR, sector: { ...SECTOR.sector, ships: mixed } })).toEqual([]);
    expect(shapeDrifts(shape, { success: true, sector: 'Vega' })).toEqual([{ pointer: '/sector', recorded: 'object', now: 'string' }]);
  });
});
