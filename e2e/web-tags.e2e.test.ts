import { describe, expect, it } from 'vitest';
import { API } from '@logo-review/contract';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, openSection, useSignedInPage } from './support/session.ts';

const session = useSignedInPage();

describe('tags', () => {
  const name = uniqueName('Tag');
  const brandName = uniqueName('Tagbrand');
  const placementName = uniqueName('Tagplace');
  const projectName = uniqueName('Tagproject');

  it('creates a tag with brand, placements and project', async () => {
    const api = await loginApi();
    const form = new FormData();
    form.append('name', brandName);
    await api.call('POST', API.brandCreate, form);
    await api.call('POST', API.placements, { localized_name: placementName, color: '#123456' });
    await api.call('POST', API.projects, { name: projectName, description: '' });

    const page = session.page();
    await openSection(page, 'Tags');
    await expectStatus(page, 'Retrieved tags.');
    await page.getByRole('button', { name: 'Add tag' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create new tag.' });
    await dialog.getByLabel(/^Name/).fill(name);
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: /^Brand/ }).fill(brandName);
    await page.getByRole('option', { name: brandName }).click();
    await dialog.getByRole('combobox', { name: 'Placements' }).fill(placementName);
    await page.getByRole('option', { name: placementName }).click();
    await dialog.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: projectName }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, 'Retrieved tags.');
    const card = page.getByRole('article', { name });
    await card.getByText(`Brand: ${brandName}`).waitFor();
    await card.getByText(`Placements: ${placementName}`).waitFor();
    await card.getByText(`Project: ${projectName}`).waitFor();
  });

  it('searches, edits and archives', async () => {
    const page = session.page();
    await page.getByRole('searchbox', { name: 'Search tags' }).fill(name.toUpperCase());
    await page.getByRole('article', { name }).waitFor();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit tag ${name}` });
    await dialog.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'None' }).click();
    await dialog.getByRole('switch', { name: 'Archived' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const archived = page.getByRole('region', { name: 'Archived (not active)' });
    const card = archived.getByRole('article', { name });
    await card.getByText('Project: /').waitFor();
  });

  it('Escape in the Placements picker closes only the picker: the dialog and what was typed stay', async () => {
    const page = session.page();
    await page.getByRole('searchbox', { name: 'Search tags' }).fill('');
    await page.getByRole('button', { name: 'Add tag' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create new tag.' });
    await dialog.getByLabel(/^Name/).fill('Typed before the picker');
    const picker = dialog.getByRole('combobox', { name: 'Placements' });
    // the list open: Escape closes the list
    await picker.fill(placementName.slice(0, 6));
    await page.getByRole('option', { name: placementName }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    // an option chosen (the list closes by itself), focus still in the picker: Escape leaves the picker
    await picker.fill(placementName);
    await page.getByRole('option', { name: placementName }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    expect(await picker.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel(/^Name/).inputValue()).toBe('Typed before the picker');
    await dialog.getByRole('button', { name: placementName }).waitFor(); // the chosen chip
    // outside the picker, Escape closes the dialog as before
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
