import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { LegalPage } from '../components/legal-page';
import { loadLegal } from '../lib/legal';

/** privacy-policy/:id?: the latest version, or the one named; an unknown id is a 404. */
export const loader = ({ params, request }: LoaderFunctionArgs) =>
  loadLegal('privacy-policy', params.id, request.signal);

export function Component() {
  return <LegalPage document={useLoaderData<typeof loader>()} />;
}
