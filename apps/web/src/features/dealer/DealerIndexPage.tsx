import { Navigate } from 'react-router';

/** Spec 2 /dealer: its first sub-route, the clients. */
export default function DealerIndexPage() {
  return <Navigate to="/dealer/clients" replace />;
}
