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
