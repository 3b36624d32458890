/**
 * The shared adapter suite on each Express major the peer range names: 5 (the workspace's
 * `express`) and 4 (the `express4` npm alias). A missing alias skips with its reason (fails
 * under CI=true).
 */
import { frameworkMajors } from '../../support/framework-majors.js';
import { runAdapterSuite } from '../../../src/testing/adapter-suite.js';
import { serveOnExpress, type ExpressModule } from '../suite/express-server.js';

for (const { major, loaded } of await frameworkMajors<ExpressModule>('Express', [[5, 'express'], [4, 'express4']], 'runs the adapter suite')) {
  runAdapterSuite({ name: `express ${major}`, createServer: (routes) => serveOnExpress(loaded, routes) });
}
