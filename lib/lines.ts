// Line changes as every figure shows them (the dashboard's Breakdowns, the public profile): only
// what was sent. Plugins send a net change per heartbeat (`ai_line_changes`: claude-code-wakatime
// sends new lines less old), so most never record a deletion, and "3,611 / 0" read as if 0
// deletions had been counted: such a figure is "3,611 added".

const count = (n: number) => n.toLocaleString('en');

/** "3,611 added", "12 deleted", "3,611 added, 12 deleted", or "none". */
export function linesText(added: number, deleted: number): string {
  const parts = [...(added > 0 ? [`${count(added)} added`] : []), ...(deleted > 0 ? [`${count(deleted)} deleted`] : [])];
  return parts.length > 0 ? parts.join(', ') : 'none';
}
