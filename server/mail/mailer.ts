import type { Transporter } from "nodemailer";
import type { Config } from "@server/config";
import type { Logger } from "@server/logger";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

const transports = new Map<string, Transporter>();

async function transportFor(smtpUrl: string): Promise<Transporter> {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    // Loaded by the first mail sent, not by every start (most installations send none).
    const { default: nodemailer } = await import("nodemailer");
    transport = transports.get(smtpUrl) ?? nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/** Whether this installation can send mail (SMTP_URL and MAIL_FROM are set). */
export function canSendMail(config: Pick<Config, "SMTP_URL" | "MAIL_FROM">): boolean {
  return Boolean(config.SMTP_URL && config.MAIL_FROM);
}

/** Sends one plain-text mail; throws when SMTP is not configured or the server refuses it. */
export async function sendMail(config: Pick<Config, "SMTP_URL" | "MAIL_FROM">, message: MailMessage): Promise<void> {
  if (!config.SMTP_URL || !config.MAIL_FROM) throw new Error("Mail is not configured (SMTP_URL, MAIL_FROM)");
  await (await transportFor(config.SMTP_URL)).sendMail({ from: config.MAIL_FROM, ...message });
}

/**
 * Sends one mail in the background (the caller does not wait for SMTP) and logs the outcome as `what` ("password
 * reset mail"), with the user it went to.
 */
export function sendMailInBackground(
  context: { config: Pick<Config, "SMTP_URL" | "MAIL_FROM">; logger: Logger },
  message: MailMessage,
  what: string,
  userId: string,
): void {
  sendMail(context.config, message).then(
    () => context.logger.info({ userId }, `${what} sent`),
    (error: unknown) => context.logger.error({ err: error, userId }, `${what} could not be sent`),
  );
}
