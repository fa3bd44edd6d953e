import {
  ALL_PERMISSIONS,
  MSG,
  PERMISSION_GROUPS,
  permissionLabel,
  ROLE_EDITOR_PERMISSION,
  roleMayHold,
  togglePermission,
  type Permission,
  type RoleName,
} from '@obol/contract';
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { roleScreensQuery } from './api/roleAgainstUsers.ts';
import { useUpdatePermission } from './api/updatePermission.ts';

/** What an update adds and removes, in the editor's order and plain labels. */
function permissionChange(before: readonly Permission[], after: readonly Permission[]) {
  return {
    adds: ALL_PERMISSIONS.filter((p) => after.includes(p) && !before.includes(p)).map(permissionLabel),
    removes: ALL_PERMISSIONS.filter((p) => before.includes(p) && !after.includes(p)).map(permissionLabel),
  };
}

/** The confirmation's text: the change, then who it reaches. */
function ChangeSummary({ role, adds, removes }: { role: RoleName; adds: string[]; removes: string[] }) {
  return (
    <>
      {adds.length ? <Box component="span" sx={{ display: 'block' }}>{`Adds: ${adds.join(', ')}.`}</Box> : null}
      {removes.length ? (
        <Box component="span" sx={{ display: 'block' }}>{`Removes: ${removes.join(', ')}.`}</Box>
      ) : null}
      <Box component="span" sx={{ display: 'block', mt: 1 }}>
        Every user with the {role} role has the new set from their next action.
      </Box>
    </>
  );
}

/** Why a permission cannot be changed for this role, if it cannot. */
function lockedReason(role: RoleName, p: Permission): string | undefined {
  if (role === 'Admin' && p === ROLE_EDITOR_PERMISSION) return 'The Admin role keeps this permission';
  if (!roleMayHold(role, p)) return 'A Brand never holds this permission';
  return undefined;
}

interface EditorProps {
  role: RoleName;
  /** what the role holds now */
  initial: readonly Permission[];
  onClose: () => void;
}

/**
 * The permission checkboxes of a role, grouped by screen, in plain labels (the spec's string on hover).
 * Unticking a screen's view permission clears the screen's other permissions, which stay disabled while view
 * is off. Update is enabled once something changed and asks for a confirmation that summarises the change.
 */
export function PermissionEditor({ role, initial, onClose }: EditorProps) {
  const [perms, setPerms] = useState<Permission[]>([...initial]);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdatePermission();
  const { notify } = useNotify();
  const change = permissionChange(initial, perms);
  const changed = change.adds.length + change.removes.length > 0;
  const idBase = useId();

  const save = async () => {
    try {
      await update.mutateAsync({ role_name: role, permission_name: perms });
      notify('success', MSG.roleUpdated);
      setConfirming(false);
      onClose();
    } catch (err) {
      setConfirming(false);
      notify('error', errorMessage(err));
    }
  };

  return (
    <>
      <DialogContent dividers>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
          The first permission of each screen opens it: unticking it clears the screen&apos;s other permissions and
          locks them until it is ticked again. Hover a permission for its name in the specification.
        </Typography>
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' },
            gap: 2,
          }}
        >
          {PERMISSION_GROUPS.map((g) => {
            const view = g.permissions[0] as Permission;
            const viewOn = perms.includes(view);
            return (
              <Box
                key={g.screen}
                component="fieldset"
                sx={{ border: 1, borderColor: 'divider', borderRadius: 1, m: 0, px: 1.5, py: 1, minWidth: 0 }}
              >
                <Typography component="legend" variant="subtitle2" sx={{ px: 0.5, fontWeight: 600 }}>
                  {g.screen}
                </Typography>
                <FormGroup>
                  {(g.permissions as readonly Permission[]).map((p, i) => {
                    const locked = lockedReason(role, p);
                    const whyId = `${idBase}-${ALL_PERMISSIONS.indexOf(p)}`;
                    return (
                      <Box key={p}>
                        <FormControlLabel
                          control={
                            <Checkbox
                              size="small"
                              checked={perms.includes(p)}
                              disabled={!!locked || (i > 0 && !viewOn)}
                              onChange={(e) => setPerms(togglePermission(perms, p, e.target.checked))}
                              slotProps={{ input: { 'aria-describedby': locked ? whyId : undefined } }}
                            />
                          }
                          // the spec's own string, for administrators who know the permissions by it
                          label={
                            <Typography variant="body2" component="span" title={p}>
                              {permissionLabel(p)}
                            </Typography>
                          }
                          sx={{ alignItems: 'flex-start', '& .MuiCheckbox-root': { pt: 0.25 }, mr: 0 }}
                        />
                        {locked ? (
                          <Typography
                            id={whyId}
                            variant="caption"
                            color="textSecondary"
                            sx={{ display: 'block', pl: 4, mt: -0.5 }}
                          >
                            {locked}
                          </Typography>
                        ) : null}
                      </Box>
                    );
                  })}
                </FormGroup>
              </Box>
            );
          })}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!changed} onClick={() => setConfirming(true)}>
          Update
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={confirming}
        title={`Update the ${role} role?`}
        text={<ChangeSummary role={role} adds={change.adds} removes={change.removes} />}
        confirmLabel="Update"
        tone="neutral"
        onCancel={() => setConfirming(false)}
        onConfirm={save}
      />
    </>
  );
}

/** What the role holds now, read afresh each time the dialog opens, then the editor. */
function EditorBody({ role, onClose }: { role: RoleName; onClose: () => void }) {
  const q = useQuery(roleScreensQuery(role));
  if (q.isError)
    return (
      <DialogContent>
        <Typography color="error">{errorMessage(q.error)}</Typography>
      </DialogContent>
    );
  // a copy cached by an earlier opening may be out of date: wait for this opening's own answer
  if (!q.data || !q.isFetchedAfterMount)
    return (
      <DialogContent sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label="Loading" />
      </DialogContent>
    );
  const held = q.data.data.flatMap((s) => s.permissions.filter((p) => p.status).map((p) => p.permission_name));
  return <PermissionEditor role={role} initial={held} onClose={onClose} />;
}

/** The Edit dialog of a role. */
export function RoleEditorDialog({ role, onClose }: { role: RoleName | null; onClose: () => void }) {
  const fullScreen = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  // the last role stays shown while the dialog fades out
  const [shown, setShown] = useState(role);
  if (role && role !== shown) setShown(role);
  return (
    <Dialog open={!!role} onClose={onClose} fullScreen={fullScreen} maxWidth="lg" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{shown ? `Edit ${shown} permissions` : ''}</DialogTitle>
      {shown ? <EditorBody key={shown} role={shown} onClose={onClose} /> : null}
    </Dialog>
  );
}
