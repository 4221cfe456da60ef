import { Badge } from '@mantine/core';
import { ACTIVITY_ACTIONS } from '@rfckit/standards';

type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** One name per recorded action on every screen (spec part 1 §4: any other action is unknown). */
export const activityActionLabels: Record<ActivityAction, string> = {
  login: 'Sign-in',
  logout: 'Sign-out',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
};

const actionColours: Record<ActivityAction, string> = {
  login: 'green',
  logout: 'gray',
  create: 'blue',
  update: 'yellow',
  delete: 'red',
};

function isKnownAction(action: string): action is ActivityAction {
  return (ACTIVITY_ACTIONS as readonly string[]).includes(action);
}

/** The label the activity page, its filter and the dashboard show for an action. */
export function activityActionLabel(action: string): string {
  return isKnownAction(action) ? activityActionLabels[action] : 'Unknown';
}

/** An activity record's action, as the activity page and the dashboard show it. */
export function ActivityActionBadge({ action }: { action: string }) {
  return (
    <Badge
      variant="light"
      color={isKnownAction(action) ? actionColours[action] : 'gray'}
      c="var(--mantine-color-text)"
      radius="sm"
      // the label is short: never cut it to an ellipsis in a narrow column
      maw="none"
      style={{ minWidth: 'max-content' }}
      data-action={action}
    >
      {activityActionLabel(action)}
    </Badge>
  );
}
