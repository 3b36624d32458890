/**
 * Server-backed tests: probe a service once per file; when it is absent, skip with a printed
 * reason — except under CI=true, where an absent server is a failure, never a silent skip.
 *
 * @example
 * const pg = await serviceAvailable('PostgreSQL', () => probeTcp(5432));
 * describe.skipIf(!pg)('postgres store', () => { ... });
 */
import { connect } from 'node:net';

export const inCI = process.env.CI === 'true';

/** Resolves when a TCP connection to 127.0.0.1:port opens within `timeoutMs`. */
export function probeTcp(port: number, host = '127.0.0.1', timeoutMs = 1500): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${host}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * True when `probe` succeeds. False (and a printed reason) when it fails outside CI.
 * Under CI=true a failing probe throws, failing the test file.
 */
export async function serviceAvailable(name: string, probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    const reason = `${name} is not reachable (${error instanceof Error ? error.message : String(error)})`;
    if (inCI) throw new Error(`${reason}; under CI=true a missing server is a failure.`, { cause: error });
    console.warn(`[skip] ${reason}: its tests are skipped.`);
    return false;
  }
}
