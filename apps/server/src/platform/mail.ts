import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { mailOutbox } from './tables.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** which mail this is (login-code, approval-code, password-reset...): what the outbox records of it */
  template: string;
  /** a one-time code in the mail: logged outside production so a developer can sign in without SMTP */
  code?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Mail goes through the outbox table (a record of every mail: recipient, subject and template, never the body,
 * which may hold a code or a link) and then out: over SMTP with nodemailer when SMTP_URL is set, otherwise (never
 * in production) as an .eml file under DATA_DIR/mail. Never call it inside a transaction.
 */
export function createMailer(config: Config, db: Db, log: FastifyBaseLogger): Mailer {
  const smtp: Transporter | undefined = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;
  // loadConfig already refuses this; files of codes and links must never be how production sends mail
  if (!smtp && config.production)
    throw new Error('SMTP_URL is required in production: mail is never written to files there');
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const mailDir = path.join(config.dataDir, 'mail');

  return {
    async send(message) {
      const [row] = await db
        .insert(mailOutbox)
        .values({ to: message.to, subject: message.subject, template: message.template })
        .returning({ id: mailOutbox.id });
      const mail = { from: config.mailFrom, to: message.to, subject: message.subject, text: message.text };
      try {
        if (smtp) {
          await smtp.sendMail(mail);
          log.info({ to: message.to, subject: message.subject }, 'mail sent over SMTP');
        } else {
          const info = await files.sendMail(mail);
          mkdirSync(mailDir, { recursive: true });
          const stamp = new Date().toISOString().replace(/[:.]/g, '-');
          const file = path.join(mailDir, `${stamp}-${row.id}-${message.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`);
          writeFileSync(file, info.message as Buffer);
          log.info(
            {
              to: message.to,
              subject: message.subject,
              file,
              ...(message.code && !config.production ? { code: message.code } : {}),
            },
            'mail written to file',
          );
        }
        await db.update(mailOutbox).set({ status: 'sent', sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
      } catch (err) {
        await db
          .update(mailOutbox)
          .set({ status: 'failed', error: String((err as Error).message ?? err) })
          .where(eq(mailOutbox.id, row.id));
        throw err;
      }
    },
  };
}
