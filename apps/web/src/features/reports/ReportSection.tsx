import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Button,
  CircularProgress,
  Stack,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';

/**
 * One card of Generate Reports: its title and description as the accordion's summary, then its fields in a row
 * (a column on a phone), then whatever follows them (`after`).
 */
export function ReportSection({
  id,
  title,
  description,
  expanded,
  onToggle,
  children,
  after,
}: {
  id: string;
  title: string;
  description: string;
  expanded: boolean;
  onToggle: () => void;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <Accordion expanded={expanded} onChange={onToggle} disableGutters>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`${id}-content`} id={`${id}-header`}>
        <Box>
          <Typography component="h2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {description}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ alignItems: { md: 'flex-start' }, flexWrap: 'wrap' }}
        >
          {children}
        </Stack>
        {after}
      </AccordionDetails>
    </Accordion>
  );
}

/** A card's Pull Report: off until the card is ready, with a spinner while the request runs. */
export function PullButton({ ready, pending, onClick }: { ready: boolean; pending: boolean; onClick: () => void }) {
  return (
    <Button
      variant="contained"
      disabled={!ready || pending}
      startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}
      onClick={onClick}
      sx={{ height: 40 }}
    >
      Pull Report
    </Button>
  );
}
