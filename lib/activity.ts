// What an activity figure is, for the write path and the read path alike.

/** No user counts more than an hour in one date-hour, however many editors or uploads fed it. */
export const HOUR_CAP_MILLIS = 3_600_000;
