// A chat's subscriptions to the daily summary (DESIGN §7), as the bot's /subscribe, /unsubscribe and
// /start change and read them, and the summary a chat is sent.

export {
  ALL_PROJECTS,
  chatSubscription,
  findProjects,
  latestSummary,
  loadSummaryDay,
  projectNames,
  subscribeAll,
  subscribeProject,
  unsubscribe,
} from '../db/queries/bot.js';
