import type { Transporter } from "nodemailer";
import type { Config } from "@server/config";

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
