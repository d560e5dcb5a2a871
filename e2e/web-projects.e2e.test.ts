import { describe, expect, it } from 'vitest';
import { API, type Brand } from '@logo-review/contract';
import { uniqueName } from './support/browser.ts';
import { expectStatus, loginApi, openSection, useSignedInPage } from './support/session.ts';

const session = useSignedInPage();

describe('projects', () => {
  const name = uniqueName('Season');
  const brandName = uniqueName('Projbrand');

  it('creates a project with a description and a hidden brand', async () => {
    const api = await loginApi();
    const form = new FormData();
    form.append('name', brandName);
    await api.call<Brand>('POST', API.brandCreate, form);

    const page = session.page();
    await openSection(page, 'Projects');
    await page.getByRole('button', { name: 'Add project' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel('Description').fill('Line 1\nLine 2\nLine 3\nLine 4\nLine 5\nLine 6');
    await dialog.getByRole('tab', { name: 'Brand' }).click();
    await dialog.getByRole('searchbox', { name: 'Search brands' }).fill(brandName);
    const toggle = dialog.getByRole('switch', { name: `Show ${brandName}` });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await dialog.getByRole('tab', { name: 'Placement' }).click();
    await dialog.getByRole('tab', { name: 'Project' }).click();
    expect(await dialog.getByLabel(/^Name/).inputValue()).toBe(name);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, `Created new Project ${name}`);
    const card = page.getByRole('article', { name });
    await card.getByText('Line 1').waitFor();
    const brandsLine = await card.getByText('All / Shown brands').textContent();
    const [all, shown] = brandsLine!
      .replace(/.*:\s*/, '')
      .split(' / ')
      .map(Number);
    expect(all - shown).toBe(1);
  });

  it('searches and edits', async () => {
    const page = session.page();
    await page.getByRole('searchbox', { name: 'Search projects' }).fill(name.toUpperCase());
    await page.getByRole('article', { name }).waitFor();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit project ${name}` });
    await dialog.getByLabel(/^Name/).fill(`${name} B`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, `Updated project ${name} B`);
    await page.getByRole('searchbox', { name: 'Search projects' }).fill('');
    await page.getByRole('article', { name: `${name} B` }).waitFor();
  });

  it('deletes after typing the name', async () => {
    const page = session.page();
    await page.getByRole('button', { name: `Delete ${name} B` }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill(`${name} b`.toUpperCase());
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectStatus(page, 'Deleted project');
    await page.getByRole('article', { name: `${name} B` }).waitFor({ state: 'detached' });
  });
});
