import { InvitationScreen, safeNext } from '@portico/account-pages';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/** The invitation page (issue 13): the shared screen; joining leads to the organisation console. */
export function Component() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <div className="container">
      <InvitationScreen
        ticket={params.get('invite_ticket')}
        here={`${location.pathname}${location.search}`}
        onJoined={(next) => navigate(safeNext(next) ?? '/org')}
      />
    </div>
  );
}
