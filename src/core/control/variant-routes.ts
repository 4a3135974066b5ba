import type { JSONSchemaType } from 'ajv';
import { SPEC_CHOICES } from '../../spec/variants.js';
import { readJsonObject } from '../body.js';
import { ApiError } from '../errors.js';
import { chooseVariants, VariantError } from '../variant-choice.js';
import { validator } from '../validation.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';

const VARIANTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['variants'],
  properties: { variants: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 100 } } },
} satisfies JSONSchemaType<{ variants: string[] }>;
const parseVariants = validator<{ variants: string[] }>(VARIANTS_SCHEMA, 'body');

/** What a client developer reads back: the variants played (and the seed that drew them), and every choice. */
export function variantsView(context: ControlContext) {
  const { names, seed } = context.variants.selection;
  return {
    variants: names,
    ...(seed === undefined ? {} : { seed }),
    choices: SPEC_CHOICES.map(({ choice, sentence, mockDefault, variants }) => ({ choice, sentence, default: mockDefault, variants })),
  };
}

/** The variants, read and switched: which legal variations the mock plays, switched while it runs. */
export function variantRoutes(context: ControlContext): ControlRoute[] {
  return [
    declaredRoute('variants', () => variantsView(context)),
    declaredRoute(
      'setVariants',
      ({ request }) => {
        const { variants } = parseVariants(readJsonObject(request));
        try {
          context.variants.replace(chooseVariants(variants));
        } catch (error) {
          throw error instanceof VariantError ? new ApiError(400, `body /variants: ${error.message}`) : error;
        }
        return variantsView(context);
      },
      { body: VARIANTS_SCHEMA },
    ),
  ];
}
