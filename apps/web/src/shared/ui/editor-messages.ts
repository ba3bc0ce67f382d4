import { type NotificationData, notifications } from '@mantine/notifications';

/**
 * Shows a message of an editor (the dashboard and flow editors) at the bottom, over what is edited. The portal's usual
 * place, top right, is over an editor's toolbar, and Mantine keeps a message open while the pointer rests on it: a
 * click aimed at Save through a message never landed for as long as the pointer stayed there.
 */
export function showEditorMessage(message: NotificationData): string {
  return notifications.show({ position: 'bottom-center', ...message });
}
