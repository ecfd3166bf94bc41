import { useTranslation } from "react-i18next";
import type { Message } from "@core/messages";
import { messageText } from "~/lib/i18n";

/** Catalogue messages (with their parameters) as a list, in the interface's language. */
export function MessageList({ messages }: { messages: readonly Message[] }) {
  const { t } = useTranslation();
  return (
    <ul className="message-list">
      {messages.map((message, index) => (
        <li key={index}>{messageText(t, message)}</li>
      ))}
    </ul>
  );
}
