// Secrets the server makes itself when the operator gives none (the registration
// challenge's key, the VAPID key pair, the unsubscribe key): made once into DATA_DIR with
// mode 0600, so they survive restarts and are shared by every instance on that directory.
// Created by linking a complete file into place: two instances starting together agree on one.

import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function readOrCreateSecretFile(
  dataDir: string,
  name: string,
  make: () => string,
  usable: (text: string) => boolean,
): string {
  const file = path.join(dataDir, name);
  const read = () => {
    const text = readFileSync(file, 'utf8').trim();
    if (!usable(text)) throw new Error(`${file} holds no usable key: remove it and a new one is made`);
    return text;
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${make()}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(draft);
  }
  return read();
}
