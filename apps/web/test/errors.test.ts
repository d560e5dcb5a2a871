import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, detailFromBody, formatError } from '../src/api/api-error';
import { reasonPhrase } from '../src/api/status-text';
import { loginErrorMessage } from '../src/pages/login-errors';

describe('error formatting (spec section 8)', () => {
  it("formats a server answer as '{status text}: {detail}'", () => {
    expect(
      formatError(
        new ApiError(400, 'Bad Request', 'Folder is not empty'),
        'Error occurred during deleting folder',
      ),
    ).toBe('Bad Request: Folder is not empty');
  });
  it('falls back to the standard reason phrase when statusText is empty (HTTP/2)', () => {
    expect(formatError(new ApiError(404, '', 'Not here'), 'x')).toBe('Not Found: Not here');
    expect(reasonPhrase(599, '')).toBe('HTTP 599');
  });
  it("formats a failure without answer as '{default message}: {error message}'", () => {
    expect(formatError(new NetworkError('Failed to fetch'), 'Error retrieving placements')).toBe(
      'Error retrieving placements: Failed to fetch',
    );
  });
  it('reads detail from JSON and keeps other bodies as they are', () => {
    expect(detailFromBody('{"detail":"Name is required"}')).toBe('Name is required');
    expect(detailFromBody('<html>oops</html>')).toBe('<html>oops</html>');
    expect(detailFromBody('')).toBe('');
  });
  it('maps login failures to the three messages', () => {
    expect(loginErrorMessage(new ApiError(400, 'Bad Request', 'x'))).toBe('Wrong username or password');
    expect(loginErrorMessage(new ApiError(500, 'Internal Server Error', 'x'))).toBe(
      'Server error occured. Please try again later.',
    );
    expect(loginErrorMessage(new NetworkError('Failed to fetch'))).toBe(
      'Server is unreachable. Please try again later.',
    );
  });
});
