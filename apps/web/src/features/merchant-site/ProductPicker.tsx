import { Card, CardActionArea, CardContent, Grid, Typography } from '@mui/material';
import { euro } from '../../lib/format.ts';
import { PRODUCTS, type ProductId } from './checkout.ts';

/** The shop's products as a radio group of cards, the chosen one outlined. */
export function ProductPicker({ product, onChange }: { product: ProductId; onChange: (id: ProductId) => void }) {
  return (
    <Grid container spacing={2} sx={{ mb: 3 }} role="radiogroup" aria-label="Product">
      {PRODUCTS.map((p) => (
        <Grid key={p.id} size={{ xs: 12, sm: 4 }}>
          <Card
            variant="outlined"
            sx={{
              borderColor: p.id === product ? 'primary.main' : 'divider',
              borderWidth: p.id === product ? 2 : 1,
            }}
          >
            <CardActionArea role="radio" aria-checked={p.id === product} onClick={() => onChange(p.id)}>
              <CardContent>
                <Typography sx={{ fontWeight: 600 }}>{p.name}</Typography>
                <Typography variant="body2" color="textSecondary">
                  {p.note}
                </Typography>
                <Typography variant="h6" component="p" sx={{ mt: 1, fontVariantNumeric: 'tabular-nums' }}>
                  {euro(p.cents)}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
