import type { DeviceBinding } from '@edgeport/dashboard-schema';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TFunction } from 'i18next';
import { describeError } from '../../../shared/http/describe.ts';
import { hasStatus } from '../../../shared/http/errors.ts';
import type { ScalarValue, WidgetRuntime } from './types.ts';

/** Why the runtime itself refused a write (before asking the server). */
export class WriteRefused extends Error {
  readonly reason: 'no-device' | 'edit-mode';
  readonly slot: string;

  constructor(reason: 'no-device' | 'edit-mode', slot: string) {
    super(reason === 'no-device' ? `no device in slot ${slot}` : 'writes are off while editing');
    this.name = 'WriteRefused';
    this.reason = reason;
    this.slot = slot;
  }
}

/** A failed write in the user's words (the server's answer by status; its own text is never shown, spec 8). */
export function writeFailure(t: TFunction, error: unknown, slotLabel?: string): string {
  if (error instanceof WriteRefused) {
    return error.reason === 'no-device'
      ? t('dashboardWidgets.noDevice', { slot: slotLabel ?? error.slot })
      : t('dashboardWidgets.write.editMode');
  }
  if (hasStatus(error, 403)) return t('dashboardWidgets.write.forbidden');
  if (hasStatus(error, 400)) return t('dashboardWidgets.write.refused');
  if (hasStatus(error, 404)) return t('dashboardWidgets.write.gone');
  return describeError(t, error);
}

/**
 * Asks "Write 42 °C to /line/setpoint of Press 1?" in a Mantine confirmation modal; resolves true when confirmed,
 * false when cancelled or closed.
 */
export function confirmWrite(
  t: TFunction,
  runtime: WidgetRuntime,
  binding: DeviceBinding,
  shown: string,
): Promise<boolean> {
  const device = runtime.deviceLabelOf?.(binding.slot) ?? runtime.slotLabel?.(binding.slot) ?? binding.slot;
  return new Promise((resolve) => {
    let answered = false;
    const answer = (confirmed: boolean) => {
      if (answered) return;
      answered = true;
      resolve(confirmed);
    };
    modals.openConfirmModal({
      title: t('dashboardWidgets.write.title'),
      children: (
        <Text size="sm" data-testid="write-confirmation">
          {t('dashboardWidgets.write.question', { value: shown, path: binding.path, device })}
        </Text>
      ),
      labels: { confirm: t('dashboardWidgets.write.confirm'), cancel: t('common.cancel') },
      onConfirm: () => answer(true),
      onCancel: () => answer(false),
      onClose: () => answer(false),
    });
  });
}

/** Writes after confirmation (when asked to confirm); answers the error to show, or null when written or cancelled. */
export async function confirmAndWrite(
  t: TFunction,
  runtime: WidgetRuntime,
  binding: DeviceBinding,
  value: ScalarValue,
  shown: string,
  confirm: boolean,
): Promise<{ written: boolean; error: string | null }> {
  if (runtime.mode === 'edit') return { written: false, error: null };
  if (confirm && !(await confirmWrite(t, runtime, binding, shown))) return { written: false, error: null };
  try {
    await runtime.write(binding, value);
    return { written: true, error: null };
  } catch (error) {
    return { written: false, error: writeFailure(t, error, runtime.slotLabel?.(binding.slot)) };
  }
}
