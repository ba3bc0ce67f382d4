import { Alert, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Props = {
  /** Why the last attempt failed, shown above the buttons. */
  failure?: string;
  onCancel: () => void;
  submitLabel: string;
  loading: boolean;
  /** Without it the button submits the form it stands in. */
  onSubmit?: () => void;
  disabled?: boolean;
};

/** The end of an organization dialog: the failure (if any), then "Cancel" and the dialog's action. */
export function ModalFooter({ failure, onCancel, submitLabel, loading, onSubmit, disabled }: Props) {
  const { t } = useTranslation();
  return (
    <>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button
          type={onSubmit ? 'button' : 'submit'}
          onClick={onSubmit}
          disabled={disabled}
          loading={loading}
        >
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
