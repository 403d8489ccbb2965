/** Spec §9 timings of the admin screens, in one place. */
export const SAVED_FLAG_MS = 1500;
export const ATTACH_STATUS_MS = 800;
export const NEXT_BOX_RETRY_MS = 300;
export const NEXT_BOX_LOAD_ERROR_MS = 4000;
export const SAVE_SUCCESS_MS = 3000;
export const SAVE_FAILURE_MS = 5000;
