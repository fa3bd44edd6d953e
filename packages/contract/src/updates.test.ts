import { describe, expect, it } from 'vitest';
import { merchantOps } from './merchants.ts';
import { usersOps } from './users.ts';

describe('user and merchant changes', () => {
  // document 3, section 9: a user or merchant create or update counts as done only on 201; a delete on 200
  it('answer 201 for every create or update of a user, merchant or brand, 200 for a delete or a resend', () => {
    const changing = [...Object.values(usersOps), ...Object.values(merchantOps)].filter((o) => 'audit' in o);
    const status = Object.fromEntries(changing.map((o) => [o.id, ('status' in o ? o.status : undefined) ?? 200]));
    expect(status).toEqual({
      inviteUser: 201,
      changeUserStatus: 201,
      updateRole: 201,
      resendInvitation: 200,
      deleteUser: 200,
      createHolder: 201,
      updateMerchantDetails: 201,
      updateDirectMerchant: 201,
      changeHolderStatus: 201,
    });
  });
});
