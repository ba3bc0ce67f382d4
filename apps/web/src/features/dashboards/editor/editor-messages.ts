import { type NotificationData, notifications } from '@mantine/notifications';

/**
 * Shows one of the editor's messages at the bottom, over the canvas. The portal's usual place, top right, is over the
 * editor's toolbar, and Mantine keeps a message open while the pointer rests on it: a click aimed at Save through a
 * message never landed for as long as the pointer stayed there.
 */
export function showEditorMessage(message: NotificationData): string {
  return notifications.show({ position: 'bottom-center', ...message });
}
