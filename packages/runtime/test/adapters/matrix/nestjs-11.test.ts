/**
 * The shared adapter suite on NestJS 11 (the `nest11-*` npm-alias dev dependencies), on
 * @nestjs/platform-express and @nestjs/platform-fastify.
 */
import { createRequire } from 'node:module';
import { vi } from 'vitest';
import { runNestMatrix } from './nest-matrix.js';

// The adapter's own `@nestjs/common` import (UseInterceptors, StreamableFile) must be this major's.
vi.mock('@nestjs/common', () => createRequire(import.meta.url)('nest11-common') as object);

await runNestMatrix(11);
