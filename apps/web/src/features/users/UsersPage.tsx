import { ROLES, type RoleName } from '@obol/contract';
import {
  Box,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  MenuItem,
  Pagination,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { localDate, localDateTime } from '../../lib/format.ts';
import { useDebounced } from '../../lib/useDebounced.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { usersQuery } from './api/users.ts';

const PER_PAGE = 10;

function Counter({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card sx={{ flex: 1, minWidth: 160 }}>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography component="p" variant="h5">
          {value ?? '-'}
        </Typography>
      </CardContent>
    </Card>
  );
}

export function UsersPage() {
  const [page, setPage] = useState(1);
  const [role, setRole] = useState('All Roles');
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText, 1000);
  // a change of filter goes back to page 1
  const filterKey = `${role}|${search}`;
  const [lastFilter, setLastFilter] = useState(filterKey);
  if (lastFilter !== filterKey) {
    setLastFilter(filterKey);
    setPage(1);
  }
  const q = useQuery({
    ...usersQuery({ per_page: PER_PAGE, page, search, roles: role === 'All Roles' ? '' : (role as RoleName) }),
    placeholderData: keepPreviousData,
  });
  const total = q.data?.users.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  // a last page that vanished drops by one
  if (q.data && !q.isPlaceholderData && page > pages) setPage(pages);

  return (
    <>
      <PageTitle>Users</PageTitle>
      <Stack direction="row" spacing={2} sx={{ mb: 2, flexWrap: 'wrap' }} useFlexGap>
        <Counter label="Total Users" value={q.data?.count} />
        <Counter label="Active Users" value={q.data?.active} />
        <Counter label="Inactive Users" value={q.data?.inactive} />
      </Stack>
      <Paper sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <TextField
            select
            label="Role"
            value={role}
            onChange={(e) => setRole(e.target.value)}
            size="small"
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="All Roles">All Roles</MenuItem>
            {ROLES.map((r) => (
              <MenuItem key={r} value={r}>
                {r}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Search"
            slotProps={{ htmlInput: { 'data-search-input': true } }}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            size="small"
            sx={{ minWidth: 260 }}
          />
        </Stack>
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Full Name</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>User Of</TableCell>
                <TableCell>Register Date</TableCell>
                <TableCell>Last Login</TableCell>
                <TableCell>User Role</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {q.isLoading ? (
                <TableRow>
                  <TableCell colSpan={7} align="center">
                    <CircularProgress size={24} />
                  </TableCell>
                </TableRow>
              ) : !q.data?.users.data.length ? (
                <TableRow>
                  <TableCell colSpan={7} align="center">
                    No Record Found
                  </TableCell>
                </TableRow>
              ) : (
                q.data.users.data.map((u) => (
                  <TableRow key={u.id} hover>
                    <TableCell>{u.name}</TableCell>
                    <TableCell>{u.email}</TableCell>
                    <TableCell>{u.parent?.name ?? '-'}</TableCell>
                    <TableCell>{localDate(u.created_at)}</TableCell>
                    <TableCell>{localDateTime(u.last_login)}</TableCell>
                    <TableCell>{u.roles[0]?.name}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={u.is_active === '1' ? 'Active' : 'Inactive'}
                        color={u.is_active === '1' ? 'success' : 'default'}
                      />
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} siblingCount={2} boundaryCount={1} />
        </Box>
      </Paper>
    </>
  );
}
