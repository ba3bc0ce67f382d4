/** Activation keys look like `EP-7KQM-3XRT-W9HC`: an unambiguous alphabet (no 0/O, 1/I/L, U). */
export const ACTIVATION_KEY_PATTERN = '^EP(-[2-9A-HJKMNP-TV-Z]{4}){3}$';
