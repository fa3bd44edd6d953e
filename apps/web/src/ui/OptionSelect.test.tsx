import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OptionSelect } from './OptionSelect.tsx';

describe('option select', () => {
  it('shows the option of the empty value ("All ...") instead of a blank field', () => {
    render(
      <OptionSelect
        label="Batch status"
        value=""
        options={[
          { label: 'All Batches', value: '' },
          { label: 'Pending', value: 'Pending' },
        ]}
        onChange={() => {}}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'Batch status' }).textContent).toBe('All Batches');
  });
});
