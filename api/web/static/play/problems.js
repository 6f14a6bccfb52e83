// Problems (RFC 9457) in the reader's words, by their stable `code`: the API's `detail` is
// English, for developers, and never shown.

import { legalInWords } from "./choices.js";
import { t } from "./i18n.js";

// A problem in the reader's words, by its code; a code this page does not know is named.
export function problemText(error) {
  switch (error.code) {
    case "illegal-action": {
      const legal = error.problem.legal_actions || [];
      return t("problem.illegal-action", legal.length ? legalInWords(legal) : "");
    }
    case "rate-limited":
      return t("problem.rate-limited", error.problem.retry_after || 1);
    case "version-conflict": case "game-finished": case "game-not-started": case "unavailable":
    case "network": case "unauthorized": case "forbidden": case "seat-taken": case "not-found":
    case "validation-error": case "payload-too-large": case "request-in-progress":
    case "idempotency-key-reused": case "already-queued": case "already-matched":
      return t(`problem.${error.code}`);
    default:
      return t("problem.other", error.code);
  }
}
