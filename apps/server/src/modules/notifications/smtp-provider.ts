import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { type MessageProvider, ProviderError, redactContact } from './provider-types.js';

/** Email over SMTP with nodemailer. 5xx answers from the server are permanent; the rest are retried. */
export function createSmtpProvider(config: Config): MessageProvider {
  const transport = nodemailer.createTransport(config.SMTP_URL ?? '', {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
  });
  return {
    name: 'smtp',
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: config.EMAIL_FROM,
          to: message.recipient,
          subject: message.subject ?? 'Vez',
          text: message.body,
        });
        return { providerId: String(info.messageId ?? '') };
      } catch (error) {
        const { responseCode, code } = error as { responseCode?: number; code?: string };
        const permanent = typeof responseCode === 'number' && responseCode >= 500;
        throw new ProviderError(redactContact(`smtp ${responseCode ?? code ?? 'error'}: ${(error as Error).message}`), permanent);
      }
    },
    async close() {
      transport.close();
    },
  };
}
