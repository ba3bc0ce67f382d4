import { type Static, Type } from 'typebox';

export const ColorScheme = Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('auto')]);

export const Theme = Type.Object({
  brandName: Type.String(),
  primaryColor: Type.String(),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  colorScheme: ColorScheme,
});
export type Theme = Static<typeof Theme>;

export const ThemeUpdate = Type.Object(
  {
    brandName: Type.String({ minLength: 1, maxLength: 60 }),
    primaryColor: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'hex colour like #1c7ed6' }),
    logoUrl: Type.Union([
      Type.String({
        pattern: '^(https://|data:image/(png|svg\\+xml|jpeg|webp);base64,)',
        maxLength: 200_000,
      }),
      Type.Null(),
    ]),
    colorScheme: ColorScheme,
  },
  { additionalProperties: false },
);
export type ThemeUpdate = Static<typeof ThemeUpdate>;
