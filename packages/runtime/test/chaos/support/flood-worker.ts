/** Child process of the multi-process flood: opens the backend, says `ready`, floods at `go`, reports. */
import { flood, openBackend, type FloodConfig, type FloodReport } from './flood.js';

export type FloodMessage = { type: 'ready' } | { type: 'result'; pid: number; report: FloodReport };

const config = JSON.parse(process.argv[2]!) as FloodConfig;
const backend = await openBackend(config.backend);
process.send!({ type: 'ready' } satisfies FloodMessage);
process.once('message', async ({ startAt }: { startAt: number }) => {
  const report = await flood(backend.store, config, startAt);
  await backend.close();
  process.send!({ type: 'result', pid: process.pid, report } satisfies FloodMessage, () => process.exit(0));
});
