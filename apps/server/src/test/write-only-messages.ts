// The messages settings of tests that read what the outbox holds: email and SMS configured
// at ports nothing listens on, and no worker, so every row stays as the service wrote it.
import { type MessagesConfig, parseMessages } from '../config';

export function writeOnlyMessages(more: Record<string, string> = {}): MessagesConfig {
  return parseMessages({
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_FROM: 'Rally <rally@example.com>',
    SMS_GATEWAY_URL: 'http://127.0.0.1:9',
    MESSAGE_WORKER: 'off',
    ...more,
  });
}
