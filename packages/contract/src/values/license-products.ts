/** Licence codes look like `LIC-7KQM-3XRT-W9HC`: the activation keys' unambiguous alphabet (no 0/O, 1/I/L, U). */
export const LICENSE_CODE_PATTERN = '^LIC(-[2-9A-HJKMNP-TV-Z]{4}){3}$';
