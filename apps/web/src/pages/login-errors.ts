import { ApiError } from '../api/api-error';

/** Spec section 8: the three login messages. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return error.status === 400
      ? 'Wrong username or password'
      : 'Server error occured. Please try again later.';
  }
  return 'Server is unreachable. Please try again later.';
}

/** Spec: the login error snackbar lasts 5 s. */
export const LOGIN_ERROR_MS = 5000;
