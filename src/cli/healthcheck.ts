/** @module cli/healthcheck — `breakline healthcheck`: a running server's readiness (/readyz) on PORT; exit 0 when ready (the Docker HEALTHCHECK). */
import { configOrExit } from './config';

export async function healthcheck(): Promise<number> {
  const { port } = configOrExit();
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) });
    process.stdout.write(`${response.status} ${await response.text()}\n`);
    return response.ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`health check failed: ${(error as Error).message}\n`);
    return 1;
  }
}
