import { describe, expect, it } from 'vitest';
import { attachmentDisposition, excelReportFileName } from '../../src/reports/report-file-name.ts';

describe('report file name', () => {
  it('is the video name, without its video extension or characters a file name cannot hold', () => {
    expect(excelReportFileName('Match day 3.mp4')).toBe('Match day 3.xlsx');
    expect(excelReportFileName('a/b\\c:d*e?f"g<h>i|j')).toBe('a_b_c_d_e_f_g_h_i_j.xlsx');
    expect(excelReportFileName('..')).toBe('report.xlsx');
    expect(excelReportFileName('')).toBe('report.xlsx');
  });

  it('puts an ASCII fallback and the exact UTF-8 name in Content-Disposition', () => {
    expect(attachmentDisposition('Derby "Milano" ü.xlsx')).toBe(
      `attachment; filename="Derby _Milano_ _.xlsx"; filename*=UTF-8''Derby%20%22Milano%22%20%C3%BC.xlsx`,
    );
  });
});
