import { describe, expect, it } from 'vitest';
import { uniqueName } from './support/browser.ts';
import { expectStatus, openSection, useSignedInPage } from './support/session.ts';

const session = useSignedInPage();

describe('placements', () => {
  const name = uniqueName('Shirt');

  it('creates a manual placement, black by default', async () => {
    const page = session.page();
    await openSection(page, 'Placements');
    await page.getByRole('button', { name: 'Add placement' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create placement' });
    expect(await dialog.getByRole('textbox', { name: /^Color/ }).inputValue()).toBe('#000000');
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByRole('textbox', { name: /^Color/ }).fill('#1e88e5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, `Successfuly updated placement ${name}`);
    const card = page.getByRole('article', { name });
    await card.getByText('#1e88e5').waitFor();
    expect(await card.getByRole('checkbox', { name: 'Manual' }).isChecked()).toBe(true);
  });

  it('searches and edits', async () => {
    const page = session.page();
    await page.getByRole('searchbox', { name: 'Search placements' }).fill(name.toLowerCase());
    await page.getByRole('article', { name }).waitFor();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit placement' });
    await dialog.getByLabel(/^Name/).fill(`${name} v2`);
    await dialog.getByRole('textbox', { name: /^Color/ }).fill('#e53935');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, `Successfuly updated placement ${name} v2`);
    await page
      .getByRole('article', { name: `${name} v2` })
      .getByText('#e53935')
      .waitFor();
  });

  it('offers delete only on manual placements and deletes', async () => {
    const page = session.page();
    await page.getByRole('button', { name: 'Clear search' }).click();
    const automatic = page
      .getByRole('article')
      .filter({ has: page.getByRole('checkbox', { name: 'Manual', checked: false }) });
    for (const card of await automatic.all()) {
      expect(await card.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    }
    await page.getByRole('button', { name: `Delete ${name} v2` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('article', { name: `${name} v2` }).waitFor({ state: 'detached' });
  });
});
