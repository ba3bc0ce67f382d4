import { answer, coreClient } from '../../shared/http/clients.ts';
import { AGREEMENTS_SERVICE } from '../agreements/api.ts';

export type RegistrationInput = {
  organizationName: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  acceptedAgreementIds: string[];
};

/** Spec 7: self-onboarding creates the organization, its first user and their administrator role (public). */
export function registerOrganization(input: RegistrationInput) {
  return answer(
    coreClient.POST('/svc/core/api/v1/organizations/selfOnBoarding', {
      body: { agreementsServiceName: AGREEMENTS_SERVICE, ...input },
    }),
  );
}
