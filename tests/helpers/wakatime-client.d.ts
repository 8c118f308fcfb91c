// wakatime-client ships no types: what tests/e2e/wakatime-client.test.ts uses of it.
declare module 'wakatime-client' {
  export const RANGE: Record<'LAST_7_DAYS' | 'LAST_30_DAYS' | 'LAST_6_MONTHS' | 'LAST_YEAR', string>;
  export class WakaTimeClient {
    constructor(apiKey: string, baseURL?: string);
    [method: string]: (...args: never[]) => Promise<unknown>;
  }
}
