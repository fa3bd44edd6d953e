import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import { IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import { FILTER_MSG, isCalendarDate } from '@obol/contract';
import { useRef, useState, type ReactNode } from 'react';

/** What is typed, as YYYY-MM-DD: digits only, the hyphens put in after the year and the month. */
export function dateText(typed: string): string {
  const d = typed.replace(/\D/g, '').slice(0, 8);
  return [d.slice(0, 4), d.slice(4, 6), d.slice(6, 8)].filter(Boolean).join('-');
}

/** The message of a date field's text: none when empty or a real date, else how to write it. */
export const dateTextError = (v: string): string | undefined =>
  !v || isCalendarDate(v) ? undefined : FILTER_MSG.dateInvalid;

/**
 * A date entered and shown as YYYY-MM-DD, the way the tables show dates (a browser's own date input shows the
 * locale's mm/dd/yyyy). Typing fills in the hyphens; the calendar button opens the browser's date picker, whose
 * choice is written back as YYYY-MM-DD. `onChange` gets the text as typed: the caller checks it (dateTextError,
 * the filters' dateErrors) before it uses it, and this field says how to write a date once the text is complete
 * or the field is left.
 */
export function DateField({
  label,
  value,
  onChange,
  min,
  max,
  error,
  helperText,
  size,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  error?: boolean;
  helperText?: ReactNode;
  size?: 'small' | 'medium';
}) {
  const picker = useRef<HTMLInputElement>(null);
  const [left, setLeft] = useState(false);
  const own = left || value.length >= 10 ? dateTextError(value) : undefined;
  const open = () => {
    const p = picker.current;
    if (!p) return;
    p.value = isCalendarDate(value) ? value : '';
    // showPicker needs a recent browser; without it the text is still typed
    if (typeof p.showPicker === 'function') p.showPicker();
  };
  return (
    <TextField
      size={size}
      label={label}
      value={value}
      placeholder="YYYY-MM-DD"
      onChange={(e) => {
        setLeft(false);
        onChange(dateText(e.target.value));
      }}
      onBlur={() => setLeft(true)}
      error={!!own || error}
      helperText={own ?? helperText}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: 'numeric', maxLength: 10, autoComplete: 'off' },
        input: {
          endAdornment: (
            <InputAdornment position="end" sx={{ position: 'relative' }}>
              <Tooltip title="Choose a date">
                <IconButton size="small" edge="end" aria-label={`Choose ${label}`} onClick={open}>
                  <CalendarMonthOutlinedIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              {/* the browser's picker, anchored under the button; never focused or read on its own */}
              <input
                ref={picker}
                type="date"
                tabIndex={-1}
                aria-hidden="true"
                min={min}
                max={max}
                onChange={(e) => {
                  if (e.target.value) onChange(e.target.value);
                }}
                style={{ position: 'absolute', right: 0, bottom: 0, width: 1, height: 1, opacity: 0, border: 0 }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
