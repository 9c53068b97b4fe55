// Vitest's file order for a run: the longest files first, by the seconds each took in a
// measured CI run (test-durations.json), so the two workers end together instead of one
// finishing a 40-second file alone while the other is idle (longest-processing-time-first).
// Without the measure Vitest runs the largest files first, and small slow ones (CLI
// processes, a crash test) were left for the end: 10-40 s with one worker busy, per leg.
// A file not measured yet goes first, as Vitest's own order does with files it does not know.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '..');
export const DURATIONS_FILE = path.join(root, 'test-durations.json');

function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')).seconds ?? {};
  } catch {
    return {};
  }
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = readDurations();
    const known = (file: TestSpecification) => seconds[path.relative(root, file.moduleId)];
    // Vitest's order first (isolated project, then size), kept among files of equal weight.
    const ordered = await super.sort(files);
    return ordered
      .map((file, index) => ({ file, index, weight: known(file) ?? Number.POSITIVE_INFINITY }))
      .sort((a, b) => b.weight - a.weight || a.index - b.index)
      .map(({ file }) => file);
  }
}
