import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS, type Brand } from '@logo-review/contract';
import { brandsApi } from '../api/brands-api';
import { formatError } from '../api/api-error';
import { QK } from '../api/query-keys';
import { FilePicker } from '../components/file-picker';
import { FormDialog } from '../components/form-dialog';
import { requiredFilled } from '../components/validation';
import { notify } from '../state/status-store';

interface Props {
  /** undefined: closed; null: new brand; a brand: update it. */
  brand: Brand | null | undefined;
  onClose(): void;
}

export function BrandDialog({ brand, onClose }: Props) {
  return brand === undefined ? null : <BrandForm key={brand?.id ?? 'new'} brand={brand} onClose={onClose} />;
}

function BrandForm({ brand, onClose }: { brand: Brand | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const editing = brand !== null;
  const [name, setName] = useState(brand?.name ?? '');
  const [localizedName, setLocalizedName] = useState(brand?.localized_name ?? '');
  const [url, setUrl] = useState(brand?.url ?? '');
  const [files, setFiles] = useState<File[]>([]);

  const save = useMutation({
    mutationFn: () =>
      brandsApi.save(
        editing
          ? { id: brand.id, localized_name: localizedName.trim(), url: url.trim(), example_logos: files }
          : {
              name: name.trim(),
              localized_name: localizedName.trim(),
              url: url.trim(),
              example_logos: files,
            },
      ),
    onSuccess: ({ updated }) => {
      const brandName = editing ? brand.name : name.trim();
      notify.success(
        updated ? `Successfully updated ${brandName}.` : `Successfully add new brand ${brandName}.`,
      );
      void queryClient.invalidateQueries({ queryKey: QK.brands });
      onClose();
    },
    onError: (error) => notify.error(formatError(error, 'Error saving brand')),
  });

  const tooLarge = files.find((f) => f.size > LIMITS.logoMaxBytes);
  return (
    <FormDialog
      open
      title={editing ? `Update ${brand.name}` : 'New Brand'}
      canSave={requiredFilled([name]) && !tooLarge}
      busy={save.isPending}
      onSave={() => save.mutate()}
      onClose={onClose}
    >
      {/* Spec: on edit only Localized Name, Url and Example Images are editable. */}
      <TextField
        label="Name"
        required
        autoFocus={!editing}
        disabled={editing}
        value={name}
        onChange={(e) => setName(e.target.value)}
        slotProps={{ htmlInput: { maxLength: LIMITS.nameMax } }}
      />
      <TextField
        label="Localized Name"
        value={localizedName}
        onChange={(e) => setLocalizedName(e.target.value)}
        slotProps={{ htmlInput: { maxLength: LIMITS.nameMax } }}
      />
      <TextField
        label="Url"
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://"
        slotProps={{ htmlInput: { maxLength: LIMITS.urlMax } }}
      />
      <FilePicker
        label="Example Images"
        accept="image/png,image/jpeg,image/webp"
        multiple
        files={files}
        onChange={setFiles}
        helperText={
          tooLarge
            ? `${tooLarge.name} is larger than ${LIMITS.logoMaxBytes / 1024 ** 2} MB.`
            : editing
              ? 'New images are added to the existing logos.'
              : 'Clear logo images (PNG, JPEG or WebP) make detection reliable.'
        }
      />
    </FormDialog>
  );
}
