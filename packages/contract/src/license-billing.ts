import { Type } from 'typebox';

// Issue 8: filled in by its service's engineer.
export const Placeholder = Type.Object({});
