/** The first member of every query key of the editor (then the organization id). */
export const EDITOR_QUERY_KEY = 'dashboard-editor';
