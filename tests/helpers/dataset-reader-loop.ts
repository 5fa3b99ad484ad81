/**
 * Child process for the publication test: reads the published Parquet state in a loop until a stop
 * file appears, checking each read is one complete state (every table present, row counts equal
 * the manifest, every session digest consistent with its rows), and prints a JSON report.
 */
import { existsSync } from 'node:fs';
import { verifyWarehouse } from '../../src/load/duckdb/verify-warehouse.js';
import { openDatasetReadOnly } from '../../src/load/parquet/dataset-reader.js';

const [root, stopFile] = process.argv.slice(2) as [string, string];
const states = new Set<string>();
const problems: string[] = [];
let reads = 0;

while (!existsSync(stopFile) && reads < 10_000) {
  try {
    const dataset = await openDatasetReadOnly(root);
    try {
      states.add(dataset.manifest.stateId);
      for (const [table, entry] of Object.entries(dataset.manifest.tables)) {
        const expected = entry.files.reduce((n, f) => n + f.rows, 0);
        const reader = await dataset.connection.runAndReadAll(`SELECT count(*) FROM ${table}`);
        const actual = Number(reader.getRows()[0]![0]);
        if (actual !== expected) problems.push(`${table}: ${actual} rows, manifest says ${expected}`);
      }
      const report = await verifyWarehouse(dataset.connection);
      if (report.problems.length > 0) problems.push(JSON.stringify(report.problems));
      if (report.sessionsChecked !== 3) problems.push(`sessions: ${report.sessionsChecked}`);
    } finally {
      dataset.close();
    }
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  reads++;
}
process.stdout.write(`${JSON.stringify({ reads, states: [...states], problems: problems.slice(0, 20) })}\n`);
