/**
 * The shared adapter suite on NestJS 12 (the workspace's @nestjs/* and the
 * `nest12-platform-fastify` alias), on @nestjs/platform-express and @nestjs/platform-fastify.
 */
import { runNestMatrix } from './nest-matrix.js';

await runNestMatrix(12);
