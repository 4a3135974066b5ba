import { OTP_LENGTH } from './limits.js';

/** JSON Schemas (draft 2020-12) of the bodies the spec shows. Extra fields are allowed everywhere. */

export const errorEnvelopeSchema = {
  $id: 'error-envelope',
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', minLength: 1 } },
  not: { required: ['success'], properties: { success: { const: true } } },
} as const;

export const successEnvelopeSchema = {
  $id: 'success-envelope',
  type: 'object',
  required: ['success'],
  properties: { success: { const: true } },
  not: { required: ['error'], properties: { error: true } },
} as const;

export const healthResponseSchema = {
  $id: 'health-response',
  type: 'object',
  required: ['status', 'version'],
  properties: {
    status: { const: 'ok' },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
  },
} as const;

export const registerRequestSchema = {
  $id: 'register-request',
  type: 'object',
  required: ['email'],
  properties: {
    email: { type: 'string', format: 'email' },
    challengeToken: { type: 'string' },
  },
} as const;

export const registerResponseSchema = {
  $id: 'register-response',
  type: 'object',
  required: ['success', 'message'],
  properties: { success: { const: true }, message: { type: 'string', minLength: 1 } },
} as const;

export const verifyEmailRequestSchema = {
  $id: 'verify-email-request',
  type: 'object',
  required: ['email', 'otp'],
  properties: {
    email: { type: 'string', format: 'email' },
    otp: { type: 'string', pattern: `^\\d{${OTP_LENGTH}}$` },
  },
} as const;

export const verifyEmailResponseSchema = {
  $id: 'verify-email-response',
  type: 'object',
  required: ['success', 'authToken', 'expiresAt'],
  properties: {
    success: { const: true },
    authToken: { type: 'string', format: 'uuid' },
    expiresAt: { type: 'string', format: 'date-time', pattern: '(Z|[+-]00:?00)$' },
  },
} as const;
