// The database's tables (drizzle), one file per area under ./tables/. drizzle-kit reads this file
// (drizzle.config.ts) and the code imports the tables from it.

export * from './tables/accounts';
export * from './tables/activity';
export * from './tables/rollups';
export * from './tables/wakatime';
export * from './tables/limits';
export * from './tables/leaderboard';
export * from './tables/community';
export * from './tables/badges';
export * from './tables/plans';
export * from './tables/goals';
export * from './tables/projects';
export * from './tables/mail';
export * from './tables/private-leaderboards';
export * from './tables/teams';
export * from './tables/trust';
export * from './tables/relays';
