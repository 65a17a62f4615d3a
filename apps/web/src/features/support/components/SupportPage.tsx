import { getConfig } from '@/lib/config';

export function Component() {
  const { supportEmail, issueTrackerURL, chatInvitationURL } = getConfig();
  return (
    <>
      <h1 className="h3 mb-3">Support</h1>
      <p>Questions about ANTARES, filters or the data? We are happy to help.</p>
      <ul>
        <li>
          E-mail us at <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </li>
        {issueTrackerURL && (
          <li>
            Report a bug or ask for a feature in our{' '}
            <a href={issueTrackerURL} target="_blank" rel="noreferrer">
              issue tracker
            </a>
            .
          </li>
        )}
        {chatInvitationURL && (
          <li>
            Talk to the team and other users in our{' '}
            <a href={chatInvitationURL} target="_blank" rel="noreferrer">
              chat workspace
            </a>
            .
          </li>
        )}
      </ul>
    </>
  );
}
