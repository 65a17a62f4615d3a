import { PendingFeature } from '../../../components/PendingFeature';

export function Component() {
  return <PendingFeature title="Watch List" />;
}
