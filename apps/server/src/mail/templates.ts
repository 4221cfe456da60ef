import type { MailMessage } from './mailer.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function layout(title: string, paragraphs: string[], link: string, button: string, footer: string): string {
  const body = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; max-width: 36rem;">
<h1 style="font-size: 1.25rem;">${escapeHtml(title)}</h1>
${body}
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 0.5rem 1rem; background: #1c7ed6; color: #fff; text-decoration: none; border-radius: 4px;">${escapeHtml(button)}</a></p>
<p style="font-size: 0.875rem;">If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>
<p style="font-size: 0.875rem; color: #555;">${escapeHtml(footer)}</p>
</body>
</html>
`;
}

function text(title: string, paragraphs: string[], link: string, footer: string): string {
  return `${title}\n\n${paragraphs.join('\n\n')}\n\n${link}\n\n${footer}\n`;
}

/** After registration and on resend: confirms the address, valid 24 hours. */
export function verifyEmailMessage(to: string, link: string): MailMessage {
  const title = 'Confirm your email address';
  const paragraphs = [
    'Welcome to rfckit. Please confirm your email address to activate your account.',
    'The link is valid for 24 hours and can be used once.',
  ];
  const footer = 'If you did not create an rfckit account, you can ignore this message.';
  return {
    kind: 'verify',
    to,
    subject: 'Confirm your email address for rfckit',
    text: text(title, paragraphs, link, footer),
    html: layout(title, paragraphs, link, 'Confirm email address', footer),
    link,
  };
}

/** Sent to the new address when a user changes their email; the change applies once confirmed. */
export function emailChangeMessage(to: string, link: string): MailMessage {
  const title = 'Confirm your new email address';
  const paragraphs = [
    'You asked to change the email address of your rfckit account to this one.',
    'Confirm it with the link below: it is valid for 24 hours and can be used once. Until then your old address stays in use.',
  ];
  const footer = 'If you did not ask for this change, you can ignore this message.';
  return {
    kind: 'email-change',
    to,
    subject: 'Confirm your new email address for rfckit',
    text: text(title, paragraphs, link, footer),
    html: layout(title, paragraphs, link, 'Confirm new address', footer),
    link,
  };
}

/** Password reset: valid 1 hour, single use. */
export function resetPasswordMessage(to: string, link: string): MailMessage {
  const title = 'Reset your password';
  const paragraphs = [
    'Someone (hopefully you) asked to reset the password of your rfckit account.',
    'Choose a new password with the link below. It is valid for 1 hour and can be used once; every signed-in session will be signed out.',
  ];
  const footer = 'If you did not ask for a reset, you can ignore this message: your password stays as it is.';
  return {
    kind: 'reset',
    to,
    subject: 'Reset your rfckit password',
    text: text(title, paragraphs, link, footer),
    html: layout(title, paragraphs, link, 'Choose a new password', footer),
    link,
  };
}

export interface InvitationDetails {
  organisationName: string;
  /** "Ada Lovelace (ada@example.org)", or null when the inviter is gone. */
  inviter: string | null;
  inviteeName: string;
  role: 'admin' | 'member';
  /** Whole days the link stays valid. */
  validDays: number;
}

/** 'Add Member' and its resend: a single-use link to join the organisation. */
export function invitationMessage(to: string, link: string, details: InvitationDetails): MailMessage {
  const title = `Join ${details.organisationName} on rfckit`;
  const who = details.inviter ?? 'An admin';
  const paragraphs = [
    `Hello ${details.inviteeName},`,
    `${who} invited you to join ${details.organisationName} on rfckit as ${details.role === 'admin' ? 'an admin' : 'a member'}.`,
    'Open the link below to accept. If you have no rfckit account yet, you choose a password there; if you have one, sign in with this address.',
    `The link is valid for ${details.validDays} days and can be used once.`,
  ];
  const footer =
    'If you did not expect this invitation, you can ignore this message: nothing happens unless you accept.';
  return {
    kind: 'invitation',
    to,
    subject: `Invitation to join ${details.organisationName} on rfckit`,
    text: text(title, paragraphs, link, footer),
    html: layout(title, paragraphs, link, 'Accept the invitation', footer),
    link,
  };
}

function message(
  kind: string,
  to: string,
  subject: string,
  content: { title: string; paragraphs: string[]; link: string; button: string; footer: string },
): MailMessage {
  const { title, paragraphs, link, button, footer } = content;
  return {
    kind,
    to,
    subject,
    text: text(title, paragraphs, link, footer),
    html: layout(title, paragraphs, link, button, footer),
    link,
  };
}

/** Someone registered with an address that has an account: its owner hears of it, the visitor learns nothing. */
export function registrationAttemptMessage(to: string, resetLink: string): MailMessage {
  return message('registration-attempt', to, 'Someone tried to register with your address on rfckit', {
    title: 'You already have an rfckit account',
    paragraphs: [
      'Someone (perhaps you) just tried to create a new rfckit account with this email address. This address already has an account, so nothing was created and nothing changed.',
      'If it was you and you have forgotten your password, you can choose a new one with the link below.',
    ],
    link: resetLink,
    button: 'Reset your password',
    footer: 'If it was not you, you can ignore this message: your account is unchanged.',
  });
}

/** Someone asked to move their account to an address that already has one: its owner hears of it. */
export function emailChangeAttemptMessage(to: string, resetLink: string): MailMessage {
  return message('email-change-attempt', to, 'Someone tried to use your address on rfckit', {
    title: 'Your address is already in use',
    paragraphs: [
      'Someone asked to change the email address of another rfckit account to this one. This address already belongs to your account, so nothing changed.',
      'If you have forgotten the password of your account, you can choose a new one with the link below.',
    ],
    link: resetLink,
    button: 'Reset your password',
    footer: 'If you did not ask for anything, you can ignore this message: your account is unchanged.',
  });
}

/** To the old address after an email change: a link that puts it back and signs out every session. */
export function emailChangedMessage(to: string, newEmail: string, undoLink: string): MailMessage {
  return message('email-changed', to, 'The email address of your rfckit account was changed', {
    title: 'Your email address was changed',
    paragraphs: [
      `The email address of your rfckit account was changed from this address to ${newEmail}.`,
      'If you did not make this change, follow the link below: it puts this address back, signs out every session and lets you choose a new password. It is valid for 7 days and can be used once.',
    ],
    link: undoLink,
    button: 'Undo the change',
    footer: 'If you made this change, you can ignore this message.',
  });
}

/** After a password change: a link that signs out every session, for when it was not the owner. */
export function passwordChangedMessage(to: string, undoLink: string): MailMessage {
  return message('password-changed', to, 'The password of your rfckit account was changed', {
    title: 'Your password was changed',
    paragraphs: [
      'The password of your rfckit account was just changed.',
      'If you did not make this change, follow the link below: it signs out every session and lets you choose a new password. It is valid for 7 days and can be used once.',
    ],
    link: undoLink,
    button: 'Secure my account',
    footer: 'If you made this change, you can ignore this message.',
  });
}

/** After repeated failed sign-ins: says so and carries a link that lifts the wait at once. */
export function accountLockedMessage(to: string, unlockLink: string): MailMessage {
  return message('account-locked', to, 'Failed sign-ins to your rfckit account', {
    title: 'Sign-in to your account is paused',
    paragraphs: [
      'There were several failed attempts to sign in to your rfckit account, so further attempts must wait a while, longer after each new failure.',
      'If these were you, follow the link below to sign in again at once. It is valid for 24 hours and can be used once.',
      'If they were not you, someone may be guessing your password: a long, unique password keeps your account safe.',
    ],
    link: unlockLink,
    button: 'Unlock sign-in',
    footer: 'Your password has not been changed and no one has signed in.',
  });
}
