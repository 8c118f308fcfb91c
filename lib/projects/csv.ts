// A project's days as CSV (GET /me/projects/{name}/days with Accept: text/csv or format=csv), for
// invoices: RFC 4180 (CRLF line ends, a field with a comma, quote or line end in double quotes,
// quotes doubled). A spreadsheet runs a cell that starts with =, +, - or @ (or a tab or carriage
// return, which some strip first) as a formula: a project name starting so gets a leading ', the
// usual guard, so the file shows the name instead of running it. Dates and numbers need no guard.

const formulaStart = /^[=+\-@\t\r]/;

/** One field, guarded against formulas and quoted when it must be. */
export function csvField(value: string): string {
  const guarded = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** Header `date,project,seconds,hours`, then one row a day with time; hours with two decimals. */
export function projectDaysCsv(project: string, days: readonly { date: string; seconds: number }[]): string {
  const name = csvField(project);
  const lines = ['date,project,seconds,hours', ...days.filter((d) => d.seconds > 0).map((d) => `${d.date},${name},${d.seconds},${(d.seconds / 3600).toFixed(2)}`)];
  return `${lines.join('\r\n')}\r\n`;
}

/** A download's file name: the project's name in ASCII letters, digits, dots, dashes and underscores (the rest as _). */
export function csvFileName(project: string): string {
  const base = project.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 80) || 'project';
  return `${base}-days.csv`;
}
