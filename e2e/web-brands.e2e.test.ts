import { describe, expect, it } from 'vitest';
import { uniqueName } from './support/browser.ts';
import { testLogo } from './support/fixtures.ts';
import { expectStatus, openSection, useSignedInPage } from './support/session.ts';

const session = useSignedInPage();

describe('brands', () => {
  const name = uniqueName('Zetacola');
  const sibling = `${name} Light`;

  it('creates brands with example images and groups similar names', async () => {
    const page = session.page();
    await openSection(page, 'Brands');
    for (const brand of [name, sibling]) {
      await page.getByRole('button', { name: 'Add brand' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New Brand' });
      const save = dialog.getByRole('button', { name: 'Save' });
      expect(await save.isDisabled()).toBe(true);
      await dialog.getByLabel(/^Name/).fill(brand);
      await dialog.getByLabel('Localized Name').fill(`${brand} LOC`);
      await dialog.getByLabel('Url').fill('https://zeta.example');
      await dialog.getByLabel('Example Images').setInputFiles(testLogo());
      await dialog.getByText('logo.png').waitFor();
      await save.click();
      await expectStatus(page, `Successfully add new brand ${brand}.`);
    }
    const group = page.getByRole('region', { name });
    await group.getByRole('article', { name: `${name} LOC (${name})` }).waitFor();
    await group.getByRole('article', { name: `${sibling} LOC (${sibling})` }).waitFor();
    const card = page.getByRole('article', { name: `${name} LOC (${name})` });
    await card.getByText('Logo Count').waitFor();
    await card.getByText('Activation progress').waitFor();
  });

  it('searches', async () => {
    const page = session.page();
    const search = page.getByRole('searchbox', { name: 'Search brands' });
    await search.fill(sibling.toUpperCase());
    await page.getByRole('article', { name: `${name} LOC (${name})` }).waitFor({ state: 'detached' });
    await page.getByRole('article', { name: `${sibling} LOC (${sibling})` }).waitFor();
    await search.fill('no-such-brand-anywhere');
    await page.getByText('No brand matches your search').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.getByRole('article', { name: `${name} LOC (${name})` }).waitFor();
  });

  it('edits only the editable fields and expands the logos', async () => {
    const page = session.page();
    await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Update ${name}` });
    expect(await dialog.getByLabel(/^Name/).isDisabled()).toBe(true);
    await dialog.getByLabel('Localized Name').fill(`${name} Renamed`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, `Successfully updated ${name}.`);
    const card = page.getByRole('article', { name: `${name} Renamed (${name})` });
    await card.waitFor();
    await card.getByRole('button', { name: `Show logos of ${name}` }).click();
    await card.getByText('logo.png').waitFor();
    // Nothing reviewed yet: no precision.
    await card.getByText('No data').waitFor();
  });

  it('checks for new brand data', async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Check for new brand data' }).click();
    await expectStatus(page, 'Checked for new brand data and updated.');
  });

  it('deactivates', async () => {
    const page = session.page();
    await page.getByRole('button', { name: `Deactivate ${sibling}`, exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expectStatus(page, 'Successufuly deactivated Brand');
    await page
      .getByRole('article', { name: `${sibling} LOC (${sibling})` })
      .getByText('DEACTIVATED')
      .waitFor();
  });

  it('deletes only after the name is typed (case-insensitive)', async () => {
    const page = session.page();
    await page.getByRole('button', { name: `Delete ${sibling}`, exact: true }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill(sibling.slice(0, -1).toLowerCase());
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill(sibling.toLowerCase());
    await confirm.click();
    await expectStatus(page, 'Successufuly deleted Brand');
    await page.getByRole('article', { name: `${sibling} LOC (${sibling})` }).waitFor({ state: 'detached' });
  });
});
