import { formatError } from '../api/api-error';
import { startLoading, stopLoading } from '../state/loading-store';
import { notify } from '../state/status-store';
import { saveBlob } from '../videos/save-blob';
import { analyticsApi, type AnalyticsScope } from './analytics-api';

/** Downloads the campaign report of a scope (a project, a folder with its subfolders, or everything). */
export async function exportCampaignReport(scope: AnalyticsScope): Promise<void> {
  startLoading('Exporting campaign report…');
  try {
    const { blob, fileName } = await analyticsApi.campaignReport(scope);
    saveBlob(blob, fileName);
    notify.success(`Exported ${fileName}.`);
  } catch (error) {
    notify.error(formatError(error, 'Error exporting the campaign report'));
  } finally {
    stopLoading();
  }
}
