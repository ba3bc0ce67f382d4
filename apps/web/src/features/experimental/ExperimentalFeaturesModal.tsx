import { Button, Checkbox, Group, Modal, ScrollArea, SimpleGrid, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../shared/store.ts';
import { experimentalModalOpen } from './experimental-actions.ts';
import { allFlags, FEATURE_FLAGS, type FeatureFlags, readFeatureFlags, writeFeatureFlags } from './flags.ts';

/** Spec 2: the 'Experimental features' selection; saving reloads the page so every screen starts with the flags. */
export function ExperimentalFeaturesModal() {
  const { t } = useTranslation();
  const opened = useStore(experimentalModalOpen);
  return (
    <Modal
      opened={opened}
      onClose={() => experimentalModalOpen.set(false)}
      title={t('experimental.title')}
      size="lg"
      data-testid="experimental-features"
    >
      {opened && <FlagSelection />}
    </Modal>
  );
}

function FlagSelection() {
  const { t } = useTranslation();
  const [flags, setFlags] = useState<FeatureFlags>(() => readFeatureFlags());
  const save = () => {
    writeFeatureFlags(flags);
    window.location.reload();
  };
  return (
    <>
      <Text size="sm" c="dimmed" mb="md">
        {t('experimental.intro')}
      </Text>
      <ScrollArea.Autosize mah="50vh">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {FEATURE_FLAGS.map((flag) => (
            <Checkbox
              key={flag}
              label={t(`experimental.flags.${flag}`)}
              checked={flags[flag]}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setFlags((current) => ({ ...current, [flag]: checked }));
              }}
              data-flag={flag}
            />
          ))}
        </SimpleGrid>
      </ScrollArea.Autosize>
      <Group justify="space-between" mt="lg">
        <Group gap="xs">
          <Button variant="subtle" size="xs" onClick={() => setFlags(allFlags(true))}>
            {t('experimental.selectAll')}
          </Button>
          <Button variant="subtle" size="xs" onClick={() => setFlags(allFlags(false))}>
            {t('experimental.clearAll')}
          </Button>
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={() => experimentalModalOpen.set(false)}>
            {t('common.cancel')}
          </Button>
          <Button onClick={save}>{t('experimental.saveAndReload')}</Button>
        </Group>
      </Group>
    </>
  );
}
