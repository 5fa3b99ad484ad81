/**
 * Errors cross the resolve worker boundary as plain data (structured clone drops classes), then are
 * rebuilt on the main thread with the same class, code, details and exit category as a local throw.
 */

import type { Diagnostic } from '../../shared/diagnostic.js';
import type { Code } from '../../shared/diagnostic-catalogue.js';
import {
  EtlError,
  IntegrityError,
  InternalError,
  IoError,
  NotFoundError,
  RetryableIoError,
  UsageError,
} from '../../shared/errors.js';
import { SessionUnavailable } from '../session-unavailable.js';

export type TransportedError =
  | { kind: 'unavailable'; diagnostic: Diagnostic }
  | { kind: 'etl'; className: EtlClassName; code: Code; message: string; details: EtlError['details'] }
  | { kind: 'other'; name: string; message: string };

// Base classes only: a subclass travels as its base, which carries the same exit category.
const ETL_CLASSES = { UsageError, NotFoundError, IoError, RetryableIoError, IntegrityError, InternalError };
type EtlClassName = keyof typeof ETL_CLASSES;

export function toTransport(error: unknown): TransportedError {
  if (error instanceof SessionUnavailable) return { kind: 'unavailable', diagnostic: error.diagnostic };
  if (error instanceof EtlError) {
    const names = Object.keys(ETL_CLASSES) as EtlClassName[];
    const className = names.find((name) => error instanceof ETL_CLASSES[name]) ?? 'InternalError';
    return { kind: 'etl', className, code: error.code, message: error.message, details: error.details };
  }
  return {
    kind: 'other',
    name: error instanceof Error ? error.name : typeof error,
    message: error instanceof Error ? error.message : '',
  };
}

export function fromTransport(error: TransportedError): Error {
  if (error.kind === 'unavailable') return new SessionUnavailable(error.diagnostic);
  if (error.kind === 'etl') return new ETL_CLASSES[error.className](error.code, error.message, error.details);
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}
