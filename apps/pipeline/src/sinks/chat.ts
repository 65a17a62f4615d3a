import type { Repositories } from '@antares/db';

import { Poller } from './poller.ts';

/** A chat message to a channel (`#name`) or a user (`@name`), as filters and watch lists name them. */
export interface ChatMessage {
  channel: string;
  text: string;
}

/** Where the pipeline puts a message: the chat outbox table, delivered later by the ChatDispatcher. */
export interface ChatNotifier {
  send(message: ChatMessage): Promise<void>;
}

/** Queues messages in the outbox (no de-duplication: each failure report is its own message). */
export function outboxNotifier(repos: Repositories): ChatNotifier {
  return {
    send: async (message) => {
      await repos.chatOutbox.enqueue([{ ...message, dedup_key: null }]);
    },
  };
}

/** Delivers one message; throws when the chat service did not take it. */
export type ChatSender = (message: ChatMessage) => Promise<void>;

export interface SlackSettings {
  /** An incoming-webhook URL: the message goes to the webhook's channel, the text names the target. */
  webhookUrl?: string;
  /** A bot token for chat.postMessage (the channel is honoured). */
  token?: string;
  /** Slack's Web API base; tests point it at a local receiver. */
  apiUrl?: string;
}

/** A Slack sender (chat.postMessage-shaped payloads), or undefined when nothing is configured. */
export function slackSender(settings: SlackSettings): ChatSender | undefined {
  if (!settings.webhookUrl && !settings.token) return undefined;
  return async ({ channel, text }) => {
    const url = settings.token ? `${settings.apiUrl ?? 'https://slack.com/api'}/chat.postMessage` : settings.webhookUrl!;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(settings.token ? { authorization: `Bearer ${settings.token}` } : {}),
      },
      body: JSON.stringify({ channel, text, unfurl_links: false }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}${body ? `: ${body.slice(0, 200)}` : ''}`);
    // The Web API answers 200 with {"ok": false, "error": ...} for refused messages; webhooks answer "ok".
    if (settings.token) {
      const parsed = JSON.parse(body) as { ok?: boolean; error?: string };
      if (!parsed.ok) throw new Error(parsed.error ?? 'refused');
    }
  };
}

/** Seconds before the next attempt after `attempts` failures: `base` (5 s) doubling, at most an hour. */
export function retryDelaySeconds(attempts: number, base = 5): number {
  return Math.min(3600, base * 2 ** Math.min(attempts, 10));
}

/**
 * Delivers the chat outbox: due messages oldest first, each marked sent once the service took it, or
 * rescheduled with backoff. Messages survive restarts (they are rows); one is marked sent right after
 * its delivery, so only a crash in between could deliver it twice.
 */
export class ChatDispatcher {
  private readonly poller: Poller;

  constructor(
    private readonly repos: Repositories,
    private readonly sender: ChatSender,
    private readonly options: { pollMs?: number; log?: (line: string) => void; retryDelaySeconds?: (attempts: number) => number } = {},
  ) {
    this.poller = new Poller(
      () => this.deliverDue(),
      options.pollMs ?? 1000,
      (error) => (options.log ?? console.error)(`chat outbox: ${error.message}`),
    );
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** One pass over the due messages; returns how many were delivered. */
  async deliverDue(limit = 100): Promise<number> {
    let delivered = 0;
    for (const message of await this.repos.chatOutbox.due(limit)) {
      if (this.poller.isStopped) break;
      try {
        await this.sender(message);
        await this.repos.chatOutbox.markSent(message.message_id);
        delivered++;
      } catch (error) {
        const delay = (this.options.retryDelaySeconds ?? retryDelaySeconds)(message.attempts + 1);
        await this.repos.chatOutbox.markFailed(message.message_id, (error as Error).message, delay);
        (this.options.log ?? console.warn)(
          `chat to ${message.channel} failed (attempt ${message.attempts + 1}, retry in ${delay} s): ${(error as Error).message}`,
        );
      }
    }
    return delivered;
  }
}
