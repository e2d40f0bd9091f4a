/**
 * @module plugins/request-id
 * Every response carries `X-Request-Id`: the caller's own when it is well formed
 * (1–128 of `A–Z a–z 0–9 . _ : -`), else a fresh `req_…`. The error renderer
 * reads it back from the response headers.
 */
import { Elysia } from 'elysia';
import { newId } from '../ids';
import { REQUEST_ID_HEADER, asHook, type RequestStep } from './step';

const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's own when well formed, else a fresh one. */
export function requestIdOf(request: Request): string {
  const incoming = request.headers.get(REQUEST_ID_HEADER);
  return incoming && WELL_FORMED.test(incoming) ? incoming : newId('req');
}

/** The step (plugins/step): the request's id as `X-Request-Id` on its answer. */
export const requestIdStep: RequestStep = (request, _server, set) => {
  set.headers[REQUEST_ID_HEADER] = requestIdOf(request);
};

export const requestId = new Elysia({ name: 'breakline/request-id' }).onRequest(asHook(requestIdStep));

/** The step and the plugin that registers it (plugins/pipeline). */
export const requestIdStage = { step: requestIdStep, plugin: requestId };
