import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The response check of the test suite (`BuildOptions.validateResponses`): every JSON body is checked,
 * as it goes on the wire, against the response schema its route declares for the status (the OpenAPI
 * document's, which are the SDK's wire types too), before it is sent. A body that does not match is a
 * programming error: the check logs the route and the first mismatches (on stderr too: the suite's
 * logger is silent) and throws, so the request answers 500 and the test that made it fails. Off in
 * production: the schemas are documentation there and bodies are serialised as they are (app.ts).
 *
 * Objects are checked closed: a field the schema does not declare is a mismatch too (a schema that
 * means to allow more says so with `additionalProperties`), so nothing reaches the wire undocumented.
 */

/** How many mismatches the log line and the error name. */
const SHOWN = 5;

/** A copy of `schema` whose objects that do not say otherwise allow no undeclared field. */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // An intersection's parts stay open: each would refuse the others' fields. The whole is closed below.
    if (key === 'allOf' && Array.isArray(value)) out[key] = value.map(closedWithin);
    else if (key === 'properties' && typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, closed(field)]));
    else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'additionalProperties')
      out[key] = closed(value);
    else out[key] = value;
  }
  if (node.type === 'object' && node.properties && node.additionalProperties === undefined)
    out.additionalProperties = false;
  if (Array.isArray(node.allOf) && node.unevaluatedProperties === undefined)
    out.unevaluatedProperties = false;
  return out;
}

/** An intersection's part: its own fields' schemas closed, the part itself open. */
function closedWithin(schema: unknown): unknown {
  const part = closed(schema) as Record<string, unknown>;
  if (typeof schema === 'object' && schema !== null && !('additionalProperties' in schema))
    delete part.additionalProperties;
  return part;
}

interface Check {
  check(value: unknown): boolean;
  /** The mismatches, against the success branch when the schema is a success-or-failure union. */
  errors(value: unknown): { instancePath: string; message: string }[];
}

function compile(schema: TSchema): Check {
  const whole = Compile(closed(schema) as TSchema);
  const branches = (schema as { anyOf?: (TSchema & { description?: string })[] }).anyOf;
  const success = branches?.find((branch) => branch.description === 'success');
  const explain = success ? Compile(closed(success) as TSchema) : whole;
  return { check: (value) => whole.Check(value), errors: (value) => explain.Errors(value) };
}

/**
 * Checks by the schema's text, shared by every server of the process: each build declares its
 * routes' response schemas afresh, and a suite builds hundreds of servers.
 */
const compiled = new Map<string, Check>();
function compiledOf(schema: TSchema): Check {
  const text = JSON.stringify(schema);
  let check = compiled.get(text);
  if (!check) {
    check = compile(schema);
    compiled.set(text, check);
  }
  return check;
}

/** The schema Fastify would pick for a status: the exact code, then `4xx`, then `default`. */
function schemaFor(request: FastifyRequest, status: number): TSchema | undefined {
  const responses = request.routeOptions.schema?.response as Record<string, TSchema> | undefined;
  return responses?.[status] ?? responses?.[`${String(status)[0]}xx`] ?? responses?.default;
}

export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
}

/** Checks every JSON body of `app` against its route's response schema (tests only). */
export function checkResponses(app: FastifyInstance): void {
  const checks = new WeakMap<TSchema, Check>();
  app.addHook('preSerialization', async (request, reply, payload) => {
    // A 5xx is the error handler's own answer, this check's included.
    if (reply.statusCode >= 500) return payload;
    const schema = schemaFor(request, reply.statusCode);
    if (!schema) return payload;
    let check = checks.get(schema);
    if (!check) {
      check = compiledOf(schema);
      checks.set(schema, check);
    }
    // What goes on the wire: undefined fields dropped, dates as text, toJSON applied.
    const wire: unknown = JSON.parse(JSON.stringify(payload) ?? 'null');
    if (check.check(wire)) return payload;
    const route = `${request.method} ${request.routeOptions.url ?? request.url} (${reply.statusCode})`;
    const errors = check
      .errors(wire)
      .slice(0, SHOWN)
      .map((error) => `${error.instancePath || '/'} ${error.message}`);
    const error = new ResponseShapeError(
      `the response of ${route} does not match its schema: ${errors.join('; ')}`,
    );
    request.log.error({ route, errors }, 'response does not match its schema');
    console.error(error.message);
    throw error;
  });
}
