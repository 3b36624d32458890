/**
 * The shared adapter suite on each Koa major the peer range names: 3 (the workspace's `koa`) and
 * 2 (the `koa2` npm alias), each behind both body parsers users mount (@koa/bodyparser and
 * koa-bodyparser). A missing alias skips with its reason (fails under CI=true).
 */
import koaBodyParser from 'koa-bodyparser';
import { runAdapterSuite } from '../../../src/testing/adapter-suite.js';
import { frameworkMajors } from '../../support/framework-majors.js';
import { serveOnKoa, type KoaModule } from '../suite/koa-server.js';

for (const { major, loaded } of await frameworkMajors<KoaModule>('Koa', [[3, 'koa'], [2, 'koa2']], 'runs the adapter suite')) {
  runAdapterSuite({ name: `koa ${major} (@koa/bodyparser)`, createServer: (routes) => serveOnKoa(loaded, routes) });
  runAdapterSuite({ name: `koa ${major} (koa-bodyparser)`, createServer: (routes) => serveOnKoa(loaded, routes, { bodyParser: () => koaBodyParser() }) });
}
