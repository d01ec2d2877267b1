/**
 * Keys read only from the global config file. Each one decides where nyzhi sends something on
 * the user's behalf (update downloads, notifications carrying session content), so a cloned
 * repository (project and local files) must not redirect it, and neither may the environment
 * or a flag. A value for them anywhere else is ignored with a warning.
 */
export const GLOBAL_ONLY_KEYS: readonly string[] = [
  "update.release_url",
  "external_notify.webhook_url",
  "external_notify.telegram_bot_token",
  "external_notify.telegram_chat_id",
  "external_notify.discord_webhook_url",
  "external_notify.slack_webhook_url",
];

export function isGlobalOnlyKey(keyPath: string): boolean {
  return GLOBAL_ONLY_KEYS.includes(keyPath);
}
