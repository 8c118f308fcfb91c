import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axe, describeViolation, pageWidth } from './audit';

// What the browser tests do around a page: collect its errors, wait for it to arrive, check it
// everywhere, and the two steps most of them begin with (sign up, make a plugin token).

/** A watcher that collects a page's script errors and console errors (but a 404 it asks for on purpose) into `errors`. */
export function watchErrors(errors: string[]) {
  return (page: Page): Page => {
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && !/status of 404/.test(m.text()) && errors.push(`${page.url()}: ${m.text()}`));
    return page;
  };
}

/** Waits until the page has arrived at `url` (a form's redirect, a link) and its requests have settled. */
export async function arrivesAt(page: Page, url: RegExp): Promise<void> {
  await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(url);
  await page.waitForLoadState('networkidle');
}

/** At a desktop's and a phone's width, in both themes: the page fits its width and axe finds nothing. Leaves it at 1366 px, light. */
export async function expectAccessibleEverywhere(page: Page): Promise<void> {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 844 });
    expect(await pageWidth(page)).toBe(width);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect([width, colorScheme, (await axe(page)).violations.map(describeViolation)]).toEqual([width, colorScheme, []]);
    }
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Signs a new person up through the sign-up form at `base` (without mail, the sign-up signs in)
 * and waits for the dashboard's welcome.
 */
export async function signUpAt(page: Page, base: string, person: { handle: string; password: string; email?: string }): Promise<void> {
  await page.goto(`${base}/signup`, { waitUntil: 'networkidle' });
  await page.getByLabel('Handle').fill(person.handle);
  await page.getByLabel('Email').fill(person.email ?? `${person.handle}@example.test`);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await arrivesAt(page, /\/dashboard\?welcome=1$/);
}

/** A plugin token made with the token form of Settings, Keys, by the person signed in on `page`. */
export async function tokenFrom(page: Page, base: string, name: string): Promise<string> {
  await page.goto(`${base}/dashboard/settings`, { waitUntil: 'networkidle' });
  await page.getByLabel('Token name').fill(name);
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByTestId('token-value').waitFor();
  return (await page.getByTestId('token-value').textContent())!;
}
