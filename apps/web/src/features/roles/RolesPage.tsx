import { STAFF_ROLES, type RoleName } from '@obol/contract';
import { Box, Button, Card, CardActions, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { roleCardsQuery } from './api/userWithCount.ts';
import { RoleEditorDialog } from './RoleEditor.tsx';

const usersCount = (n: number) => (n === 1 ? '1 user' : `${n} users`);

/** A card per role with its number of users; Edit opens the permission editor (staff only: roles are shared). */
export function RolesPage() {
  const session = useSession();
  const q = useQuery(roleCardsQuery());
  const [editing, setEditing] = useState<RoleName | null>(null);
  const canEdit = !!session && STAFF_ROLES.includes(session.user.role);

  return (
    <>
      <PageTitle>Roles & Permissions</PageTitle>
      {q.isError ? <Typography color="error">{errorMessage(q.error)}</Typography> : null}
      <Box
        component="ul"
        aria-label="Roles"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        {q.data
          ? q.data.data.map((r) => (
              <Box component="li" key={r.name} sx={{ minWidth: 0 }}>
                <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
                  <CardContent sx={{ flex: 1 }}>
                    <Typography component="h2" variant="h6">
                      {r.name}
                    </Typography>
                    <Typography color="textSecondary" variant="body2">
                      {usersCount(r.count)}
                    </Typography>
                  </CardContent>
                  <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
                    {canEdit ? (
                      <Button
                        size="small"
                        variant="outlined"
                        onClick={() => setEditing(r.name)}
                        aria-label={`Edit ${r.name}`}
                      >
                        Edit
                      </Button>
                    ) : null}
                    {r.count > 0 ? (
                      <Button
                        size="small"
                        component={RouterLink}
                        to={`/roles-permissions/${encodeURIComponent(r.name)}`}
                        aria-label={`View users against role ${r.name}`}
                      >
                        View users against role
                      </Button>
                    ) : (
                      <Button size="small" disabled aria-label={`View users against role ${r.name}`}>
                        View users against role
                      </Button>
                    )}
                  </CardActions>
                </Card>
              </Box>
            ))
          : q.isLoading
            ? Array.from({ length: 8 }, (_, i) => (
                <Box component="li" key={i}>
                  <Skeleton variant="rounded" height={120} />
                </Box>
              ))
            : null}
      </Box>
      <RoleEditorDialog role={editing} onClose={() => setEditing(null)} />
    </>
  );
}
