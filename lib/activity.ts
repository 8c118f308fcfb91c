// What an activity figure is, for the write path and the read path alike.

/** No user counts more than an hour in one date-hour, however many editors or uploads fed it. */
export const HOUR_CAP_MILLIS = 3_600_000;

/** Fields that would carry what the service never accepts: file bodies, diffs, clipboard data. */
export const CONTENT_FIELDS: ReadonlySet<string> = new Set(['content', 'body', 'text', 'diff', 'patch', 'clipboard', 'source', 'code', 'snippet']);
