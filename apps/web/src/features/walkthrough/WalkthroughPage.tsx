import { Stack, Stepper, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STEPS } from './activation.ts';
import type { Activation, DeviceLicense } from './api.ts';
import { CredentialsStep } from './components/CredentialsStep.tsx';
import { DeviceStep } from './components/DeviceStep.tsx';
import { KeyStep } from './components/KeyStep.tsx';
import { LicenceStep } from './components/LicenceStep.tsx';

/** Past the last step: every step shows as done and the credentials show below (Stepper.Completed). */
const DONE = STEPS.length;

/**
 * Spec 2 /walkthrough: device activation. Activation key -> licence -> device label and preset -> credentials (shown
 * once) and the edge configuration file. Needs READ models and CREATE devices (spec 6).
 */
export default function WalkthroughPage() {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const [key, setKey] = useState('');
  const [licence, setLicence] = useState<DeviceLicense | null>(null);
  const [activation, setActivation] = useState<Activation | null>(null);
  // A new round (after "activate another") mounts fresh step components.
  const [round, setRound] = useState(0);

  const restart = () => {
    setActivation(null);
    setLicence(null);
    setKey('');
    setActive(0);
    setRound((value) => value + 1);
  };
  // Before activation, earlier steps can be revisited; after it, the credentials stay until "activate another".
  const selectable = (index: number) => active < DONE && index < active;

  return (
    <Stack gap="lg" p="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('walkthrough.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('walkthrough.intro')}
        </Text>
      </Stack>
      <Stepper
        active={active}
        onStepClick={(index) => {
          if (selectable(index)) setActive(index);
        }}
        allowNextStepsSelect={false}
        aria-label={t('walkthrough.title')}
      >
        <Stepper.Step
          label={t('walkthrough.steps.key')}
          description={t('walkthrough.steps.keyDescription')}
          allowStepSelect={selectable(0)}
        >
          <KeyStep
            key={`key-${round}`}
            initialKey={key}
            onFound={(found) => {
              setKey(found.activationKey);
              setLicence(found);
              setActive(1);
            }}
          />
        </Stepper.Step>
        <Stepper.Step
          label={t('walkthrough.steps.licence')}
          description={t('walkthrough.steps.licenceDescription')}
          allowStepSelect={selectable(1)}
        >
          {licence && (
            <LicenceStep licence={licence} onBack={() => setActive(0)} onNext={() => setActive(2)} />
          )}
        </Stepper.Step>
        <Stepper.Step
          label={t('walkthrough.steps.device')}
          description={t('walkthrough.steps.deviceDescription')}
          allowStepSelect={selectable(2)}
        >
          {licence && (
            <DeviceStep
              key={`device-${round}-${licence.id}`}
              licence={licence}
              onBack={() => setActive(1)}
              onActivated={(done) => {
                setActivation(done);
                setActive(DONE);
              }}
            />
          )}
        </Stepper.Step>
        <Stepper.Step
          label={t('walkthrough.steps.credentials')}
          description={t('walkthrough.steps.credentialsDescription')}
          allowStepSelect={false}
        />
        <Stepper.Completed>
          {activation && <CredentialsStep activation={activation} onAnother={restart} />}
        </Stepper.Completed>
      </Stepper>
    </Stack>
  );
}
