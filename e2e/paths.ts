import path from 'node:path';

/** Port of the server the journeys browse; E2E_PORT lets two runs share a machine. */
export const e2ePort = Number(process.env.E2E_PORT ?? 4317);

/** The e2e server's DATA_DIR, one per port, wiped at the start of each run. */
export const e2eDataDir = path.resolve(`node_modules/.cache/rfckit-e2e-${e2ePort}`);
