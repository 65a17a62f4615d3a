import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

import type { Config } from '../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail over SMTP when configured; otherwise writes it to the outbox folder and the log. */
export class Mailer {
  private readonly transport;

  constructor(
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;
  }

  async send(mail: Mail): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.mailFrom, ...mail });
      return;
    }
    const outbox = path.join(this.config.dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true });
    const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^\w.@-]/g, '_')}.eml`);
    writeFileSync(file, `From: ${this.config.mailFrom}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`);
    this.log.info({ to: mail.to, subject: mail.subject, file }, `mail written to the outbox (no SMTP configured):\n${mail.text}`);
  }
}
