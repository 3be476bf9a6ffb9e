// A user's watchlist and its alerts (DESIGN §10.7), and the Telegram chat they are linked to: the web's
// «Избранное» and the bot's /watch and /link do these. Each is one statement or one transaction of its
// query module; the alerts themselves are computed after every import (use-cases/host.ts).

export {
  addWatch,
  LINK_CODE_MINUTES,
  linkChat,
  listAlerts,
  listWatches,
  markAlertsRead,
  newLinkCode,
  removeFlatWatch,
  removeWatch,
  telegramLinked,
  unlinkTelegram,
  updateWatch,
  userOfChat,
  type WatchInput,
} from '../db/queries/watch.js';
