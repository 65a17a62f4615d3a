import { FaqPage } from '@/features/faq/components/FaqPage';
import { FilterEnvironmentList } from '@/features/filters/components/FilterEnvironmentList';

/** The FAQ page, with the filter environment's list: composed here because a feature never imports another. */
export function Component() {
  return <FaqPage environment={<FilterEnvironmentList />} />;
}
