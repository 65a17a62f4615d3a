import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** A chat message to a channel (`#name`) or a user (`@name`), as filters and watch lists name them. */
export interface ChatMessage {
  channel: string;
  text: string;
}

export interface ChatNotifier {
  send(message: ChatMessage): Promise<void>;
}

/**
 * Chat notifications: to Slack (chat.postMessage) when the operator configured a bot token, else to a
 * JSON-lines outbox file in the data folder and the log, so nothing is lost and tests can read them.
 * A delivery failure is logged and written to the outbox; it never stops the pipeline.
 */
export function createChatNotifier(options: {
  slackToken?: string; outboxFile: string; log?: (line: string) => void;
  /** Slack's Web API; tests point it at a local server. */
  slackApiUrl?: string;
}): ChatNotifier {
  const log = options.log ?? console.log;
  const toOutbox = (message: ChatMessage, note?: string) => {
    mkdirSync(path.dirname(options.outboxFile), { recursive: true });
    appendFileSync(options.outboxFile, `${JSON.stringify({ at: new Date().toISOString(), ...message, ...(note ? { note } : {}) })}\n`);
  };
  return {
    async send(message) {
      if (!options.slackToken) {
        toOutbox(message);
        log(`chat (outbox) ${message.channel}: ${message.text.split('\n')[0]}`);
        return;
      }
      try {
        const response = await fetch(`${options.slackApiUrl ?? 'https://slack.com/api'}/chat.postMessage`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${options.slackToken}` },
          body: JSON.stringify({ channel: message.channel, text: message.text }),
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await response.json().catch(() => ({}))) as { ok?: boolean; error?: string };
        if (!response.ok || !body.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
      } catch (error) {
        toOutbox(message, `not delivered: ${(error as Error).message}`);
        log(`chat to ${message.channel} not delivered: ${(error as Error).message}`);
      }
    },
  };
}
