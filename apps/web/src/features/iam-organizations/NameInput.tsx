import { TextInput, type TextInputProps } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { Ref } from 'react';

/** The name field of an organization dialog (a sub-organization, a security policy group, a service client). */
export function NameInput(props: TextInputProps & { ref?: Ref<HTMLInputElement> }) {
  return <TextInput required data-autofocus maxLength={120} {...props} />;
}

/** The rules of a name field: something other than white space. */
export function nameRules(t: TFunction) {
  return {
    validate: (value: string) => (value.trim() ? true : t('iamOrganizations.validation.nameRequired')),
  };
}
