// The saga scenarios on the Redis store: one key prefix per scenario, all deleted afterwards.
import { Redis } from 'ioredis';
import { deleteRunKeys, uniquePrefix } from '../stores/redis-support/prefix.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { runSagaSuite } from './support/saga-suite.js';

const available = await serviceAvailable('Redis (127.0.0.1:6379)', () => probeTcp(6379));
runSagaSuite({
  name: 'redis',
  skip: available ? false : 'Redis is not reachable on 127.0.0.1:6379',
  storeFor: (label) => ({ kind: 'redis', prefix: uniquePrefix(`saga-${label}`) }),
  cleanup: async () => {
    if (!available) return;
    const client = new Redis({ host: '127.0.0.1', port: 6379 });
    await deleteRunKeys(client);
    client.disconnect();
  },
});
