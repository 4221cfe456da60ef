import {
  ResponseSerializationError,
  serializerCompiler as zodEncodeSerializerCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { $ZodType, $ZodTypes } from 'zod/v4/core';

/**
 * Whether decoding (`parse`) and encoding (`encode`) a value with `schema` do the same thing:
 * check it and copy the known keys. True for plain data schemas; false for anything that converts
 * (transforms, pipes and codecs, defaults, catch, `overwrite` checks such as `.trim()`), for
 * unknown/any values, and for whatever this list does not know.
 */
export function isDirectionless(schema: $ZodType): boolean {
  const typed = schema as $ZodTypes;
  const def = typed._zod.def;
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return false;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'literal':
    case 'enum':
      return true;
    case 'object':
      return (
        Object.values(def.shape).every(isDirectionless) &&
        (def.catchall === undefined || isDirectionless(def.catchall))
      );
    case 'array':
      return isDirectionless(def.element);
    case 'nullable':
    case 'optional':
      return isDirectionless(def.innerType);
    case 'union':
      return def.options.every(isDirectionless);
    default:
      return false;
  }
}

/**
 * Response serializer with the semantics of fastify-type-provider-zod's — the payload is checked
 * against the route's response schema, unknown keys are dropped, a mismatch throws
 * `ResponseSerializationError` — at a fraction of the cost: the schema is compiled once with
 * `z.compile` (Zod's own code generator, which hands any failure back to the regular parser so the
 * issues are Zod's) instead of being interpreted on every response. The compiled fast path only
 * runs forward (`parse`), so schemas where forward and `encode` differ keep the library's
 * serializer.
 */
export const serializerCompiler: typeof zodEncodeSerializerCompiler = (route) => {
  const { schema, method, url } = route;
  if (!(schema instanceof z.core.$ZodType) || !isDirectionless(schema))
    return zodEncodeSerializerCompiler(route);
  const compiled = z.compile(schema);
  return (data) => {
    const result = z.safeParse(compiled, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
