/**
 * The shared adapter suite against Express 4, loaded from the `express4` alias dev dependency
 * (`"express4": "npm:express@^4.21.2"`). Without the alias the file skips with a reason, except
 * under CI=true, where a missing Express 4 fails like a missing server would.
 */
import { describe, it } from 'vitest';
import { serviceAvailable } from '../support/services.js';
import { runAdapterSuite } from '../../src/testing/adapter-suite.js';
import { serveOnExpress, type ExpressModule } from './suite/express-server.js';

const alias = 'express4'; // a variable specifier: the alias may not be installed
const express4 = (await serviceAvailable('Express 4 (the "express4" alias dev dependency)', () => import(alias)))
  ? ((await import(alias)) as { default: ExpressModule }).default
  : undefined;

if (express4) runAdapterSuite({ name: 'express 4', createServer: (routes) => serveOnExpress(express4, routes) });
else describe.skip('express 4 adapter (the "express4" alias is not installed)', () => it('runs the adapter suite', () => {}));
